import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { ddb, tableName } from './client';
import { createTableInput, globalIndexInput, TABLE_SHAPE } from './table';

/**
 * Creates the table from TABLE_SHAPE if it is missing (local server and tests; CDK owns it on AWS).
 * `stream: false` is for tests that never read the stream: DynamoDB Local keeps every stream
 * record of every table in one store and each write's stream bookkeeping reads it, so a suite's
 * worth of streamed tables slows every later write.
 */
export async function ensureTable(options: { stream?: boolean } = {}): Promise<void> {
  const name = tableName();
  try {
    const { Table } = await ddb().send(new DescribeTableCommand({ TableName: name }));
    await addMissingIndexes(name, new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName)));
    return;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  try {
    await ddb().send(new CreateTableCommand(createTableInput(name, options)));
    await ddb().send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: TABLE_SHAPE.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}

/**
 * A table kept from an earlier version (`npm start`'s `.data/`) gains the indexes added since, one
 * at a time as DynamoDB allows; DynamoDB fills each from the items already there (as a deploy does on AWS).
 */
async function addMissingIndexes(name: string, present: ReadonlySet<string | undefined>): Promise<void> {
  for (const index of TABLE_SHAPE.globalIndexes) {
    if (present.has(index.name)) continue;
    await ddb().send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((attribute) => ({
          AttributeName: attribute,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexUpdates: [{ Create: globalIndexInput(index) }],
      }),
    );
    await indexActive(name, index.name);
  }
}

async function indexActive(name: string, indexName: string): Promise<void> {
  for (let tries = 0; tries < 600; tries += 1) {
    const { Table } = await ddb().send(new DescribeTableCommand({ TableName: name }));
    const status = Table?.GlobalSecondaryIndexes?.find((index) => index.IndexName === indexName)?.IndexStatus;
    if (status === undefined || status === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`index ${indexName} of ${name} did not become active`);
}
