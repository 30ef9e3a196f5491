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

/** A stream record's change. */
export type StreamChange = 'INSERT' | 'MODIFY' | 'REMOVE';

/**
 * The patterns of a worker's kinds: every change of them, except the kinds `changesOf` restricts
 * to the changes named (a worker that never acts on an appointment's INSERT is not invoked by one).
 */
export function streamFilterPatterns(
  entities: readonly string[],
  changesOf: Readonly<Record<string, readonly StreamChange[]>> = {},
): StreamFilterPattern[] {
  const every = entities.filter((entity) => !changesOf[entity]);
  const patterns: StreamFilterPattern[] =
    every.length > 0
      ? [
          { dynamodb: { NewImage: { entity: { S: every } } } },
          { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: every } } } },
        ]
      : [];
  for (const entity of entities.filter((kind) => changesOf[kind])) {
    const changes = changesOf[entity]!;
    const kept = changes.filter((change) => change !== 'REMOVE');
    if (kept.length > 0) patterns.push({ eventName: kept, dynamodb: { NewImage: { entity: { S: [entity] } } } });
    if (changes.includes('REMOVE'))
      patterns.push({ eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [entity] } } } });
  }
  return patterns;
}

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
