import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { ddb, tableName } from './client';
import { createTableInput, TABLE_SHAPE } from './table';

/**
 * Creates the table from TABLE_SHAPE if it is missing (local server and tests; CDK owns it on AWS).
 * `stream: false` is for tests that never read the stream: DynamoDB Local keeps every stream
 * record of every table in one store and each write's stream bookkeeping reads it, so a suite's
 * worth of streamed tables slows every later write.
 */
export async function ensureTable(options: { stream?: boolean } = {}): Promise<void> {
  const name = tableName();
  try {
    await ddb().send(new DescribeTableCommand({ TableName: name }));
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
