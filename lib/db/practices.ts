import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Practice } from '../domain/records';
import { ddb, tableName } from './client';
import { practiceCodec } from './codecs';
import { conditionFailure, fromItem, versionedUpdate } from './entities';
import { practiceKey } from './keys';

export async function getPractice(medspaId: string): Promise<Practice | null> {
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: practiceKey(medspaId), ConsistentRead: true }));
  return fromItem<Practice>(Item);
}

export async function putNewPractice(practice: Practice): Promise<Practice> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: practiceCodec.toItem(practice),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return practice;
}

export async function updatePractice(
  medspaId: string,
  changes: Partial<Practice>,
  options: { now: string; expectedVersion?: number },
): Promise<Practice> {
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: practiceKey(medspaId),
        ...versionedUpdate(changes, { ...options, notFound: 'NOT_FOUND' }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return fromItem<Practice>(Attributes)!;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw conditionFailure(error.Item as never, 'NOT_FOUND');
    throw error;
  }
}
