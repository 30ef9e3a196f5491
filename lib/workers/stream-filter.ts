/**
 * Event filtering of the table stream's mappings (Lambda's FilterCriteria), as plain data: the
 * CDK stack synthesizes these patterns and the local pollers apply them with `passes`, so a worker
 * is invoked for the same records here as on AWS. A worker takes the records whose item is one of
 * its `entities`: the `entity` tag of the new image (INSERT, MODIFY) or, for a REMOVE, of the old
 * one, as lib/db/stream.ts's decoder picks the image. Records of other items (audit entries,
 * rate-limit buckets, idempotency records, their TTL expiries) invoke nothing.
 */
export type StreamFilterPattern = {
  eventName?: readonly string[];
  dynamodb: { NewImage?: EntityMatch; OldImage?: EntityMatch };
};
type EntityMatch = { entity: { S: readonly string[] } };

export const streamFilterPatterns = (entities: readonly string[]): StreamFilterPattern[] => [
  { dynamodb: { NewImage: { entity: { S: [...entities] } } } },
  { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [...entities] } } } },
];

/**
 * Whether a value matches a pattern of the subset these patterns use (Lambda's event filtering
 * rules): an array lists the values a field may have, an object matches field by field.
 */
function matches(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value);
  if (typeof pattern !== 'object' || pattern === null) return false;
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([key, inner]) => matches(inner, (value as Record<string, unknown>)[key]));
}

/** Lambda invokes a mapping's function for a record that matches any of its filters. */
export const passes = (patterns: readonly StreamFilterPattern[], record: unknown): boolean =>
  patterns.some((pattern) => matches(pattern, record));
