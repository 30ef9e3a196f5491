import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

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
  ],
} as const;

/** The stream the events pipeline and the report aggregates read: both images of every change. */
export const STREAM_SPECIFICATION = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

export function createTableInput(tableName: string, options: { stream?: boolean } = {}): CreateTableCommandInput {
  const keyAttributes = [
    TABLE_SHAPE.partitionKey,
    TABLE_SHAPE.sortKey,
    ...TABLE_SHAPE.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE_SHAPE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SHAPE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: TABLE_SHAPE.globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    ...(options.stream === false ? {} : { StreamSpecification: STREAM_SPECIFICATION }),
  };
}
