import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Practice } from '../domain/records';
import { ddb, tableName } from './client';
import { practiceCodec } from './codecs';
import { fromItem, updateItem } from './entities';
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

/** A PATCH of the settings; equal values change nothing (lib/db/entities updateItem). */
export const updatePractice = (medspaId: string, changes: Partial<Practice>, options: { now: string; expectedVersion?: number }): Promise<Practice> =>
  updateItem<Practice>(practiceKey(medspaId), changes, { ...options, notFound: 'NOT_FOUND' });
