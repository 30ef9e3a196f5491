import type { PracticeRecord } from '../domain/records';
import { practiceCodec } from './codecs';
import { readItem } from './key-reads';
import { practiceKey } from './keys';
import { putNew } from './put-new';
import { updateItem, type UpdateOutcome } from './update';

export const getPractice = async (medspaId: string): Promise<PracticeRecord | null> =>
  practiceCodec.fromItem(await readItem(practiceKey(medspaId)));

export const putNewPractice = (practice: PracticeRecord) => putNew(practiceCodec, practice);

/** A PATCH of the settings; equal values change nothing (lib/db/update.ts updateItem). */
export async function updatePractice(
  medspaId: string,
  changes: Partial<PracticeRecord>,
  options: { now: string; expectedVersion?: number },
): Promise<UpdateOutcome<PracticeRecord>> {
  // Through the codec: settings never set read as their defaults.
  return updateItem(practiceCodec, practiceKey(medspaId), changes, options);
}
