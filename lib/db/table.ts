import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * What an appointment list entry reads besides its keys (lib/db/stored.ts storedAppointmentListEntry):
 * gsi1n's projection. The id and the start are read from the entry's gsi1sk (`${scheduled_at}#${id}`).
 */
export const APPOINTMENT_LIST_ATTRIBUTES = [
  'client_id',
  'service_id',
  'provider_id',
  'duration_minutes',
  'status',
] as const;

/**
 * The one table. Its shape is declared once here and turned into the CDK table, the local
 * bootstrap's CreateTable call and the tests' table.
 */
export const TABLE_SHAPE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Items with this epoch-seconds attribute expire (idempotency records, caches). */
  ttlAttribute: 'expires_at',
  globalIndexes: [
    /** gsi1: secondary orderings inside one practice collection (e.g. appointments by time). */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** gsi2: a second ordering or a sparse lookup (e.g. credential by client_id, low stock). */
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /**
     * gsi1n: gsi1's keys with only what the appointment list shows and filters on (docs/cost.md):
     * a Query bills the entries' size, so the list polled all day reads about a third of what
     * gsi1's whole items cost. Same keys, so no item needs new attributes, and gsi1's cursors work here.
     */
    { name: 'gsi1n', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', include: APPOINTMENT_LIST_ATTRIBUTES },
  ],
} as const;

type GlobalIndex = (typeof TABLE_SHAPE.globalIndexes)[number];
/** The projection of an index as CreateTable (and CDK) take it: ALL unless it names what it includes. */
export const projectionOf = (index: GlobalIndex) =>
  'include' in index
    ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.include] }
    : { ProjectionType: 'ALL' as const };

/** The key attribute names of the table (no index) or an index. */
export const keyNamesOf = (indexName?: string): { pk: string; sk: string } => {
  if (!indexName) return { pk: TABLE_SHAPE.partitionKey, sk: TABLE_SHAPE.sortKey };
  const index = TABLE_SHAPE.globalIndexes.find((candidate) => candidate.name === indexName);
  if (!index) throw new Error(`no index ${indexName}`);
  return { pk: index.partitionKey, sk: index.sortKey };
};

/** The stream the events pipeline and the report aggregates read: both images of every change. */
export const STREAM_SPECIFICATION = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

export function createTableInput(tableName: string, options: { stream?: boolean } = {}): CreateTableCommandInput {
  const keyAttributes = [
    ...new Set([
      TABLE_SHAPE.partitionKey,
      TABLE_SHAPE.sortKey,
      ...TABLE_SHAPE.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_SHAPE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SHAPE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_SHAPE.globalIndexes.map(globalIndexInput),
    ...(options.stream === false ? {} : { StreamSpecification: STREAM_SPECIFICATION }),
  };
}

/** One index as CreateTable and UpdateTable take it. */
export const globalIndexInput = (index: GlobalIndex) => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
  ],
  Projection: projectionOf(index),
});
