import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Practice } from '../domain/records';
import { ddb, tableName } from './client';
import { practiceCodec } from './codecs';
import { fromItem, getItem } from './item';
import { practiceKey } from './keys';
import { updateItem, type UpdateOutcome } from './update';

export const getPractice = async (medspaId: string): Promise<Practice | null> => fromItem<Practice>(await getItem(practiceKey(medspaId)));

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

/** A PATCH of the settings; equal values change nothing (lib/db/update.ts updateItem). */
export const updatePractice = (medspaId: string, changes: Partial<Practice>, options: { now: string; expectedVersion?: number }): Promise<UpdateOutcome<Practice>> =>
  updateItem<Practice>(practiceKey(medspaId), changes, options);
