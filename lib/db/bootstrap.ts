import { CreateTableCommand, DescribeTableCommand, ResourceInUseException, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { ddb, tableName } from './client';
import { createTableInput, TABLE_SHAPE } from './table';

/** Creates the table from TABLE_SHAPE if it is missing (local server and tests; CDK owns it on AWS). */
export async function ensureTable(): Promise<void> {
  const name = tableName();
  try {
    await ddb().send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  try {
    await ddb().send(new CreateTableCommand(createTableInput(name)));
    await ddb().send(
      new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: TABLE_SHAPE.ttlAttribute, Enabled: true } }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
}
