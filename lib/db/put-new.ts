import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import type { Codec } from './codecs';

/** Writes a new record through its kind's codec; a taken key fails (ConditionalCheckFailedException). */
export async function putNew<T>(codec: Codec<T>, record: T): Promise<T> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: codec.toItem(record), ConditionExpression: 'attribute_not_exists(pk)' }));
  return record;
}
