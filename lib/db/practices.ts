import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PracticeRecord } from '../domain/records';
import { ddb, tableName } from './client';
import { practiceCodec } from './codecs';
import { updateItem } from './entities';
import { practiceKey } from './keys';
import { putNew } from './put-new';

export async function getPractice(medspaId: string): Promise<PracticeRecord | null> {
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: practiceKey(medspaId), ConsistentRead: true }));
  return practiceCodec.fromItem(Item);
}

export const putNewPractice = (practice: PracticeRecord) => putNew(practiceCodec, practice);

/** A PATCH of the settings; equal values change nothing (lib/db/entities updateItem). */
export const updatePractice = (medspaId: string, changes: Partial<PracticeRecord>, options: { now: string; expectedVersion?: number }): Promise<PracticeRecord> =>
  updateItem<PracticeRecord>(practiceKey(medspaId), changes, { ...options, notFound: 'NOT_FOUND' });
