import type { PageRequest } from '../crypto/cursor';
import { isEntityId } from '../domain/ids';
import type { PracticeRecord, PublishableKeyRecord } from '../domain/records';
import { getEntity } from './batch';
import { itemId, readItems } from './key-reads';
import { practiceCodec, publishableKeyCodec } from './codecs';
import { entityKey, practiceKey } from './keys';
import { putNew } from './put-new';
import { listEntities } from './query';
import type { RequestWrites } from './request-writes';
import { deleteEntity, updateEntity } from './update';

export type { PublishableKeyRecord };

export const putNewPublishableKey = (record: PublishableKeyRecord, writes?: RequestWrites) =>
  putNew(publishableKeyCodec, record, writes);

export const listPublishableKeys = (medspaId: string, page: PageRequest) =>
  listEntities(publishableKeyCodec, medspaId, page);

/** The key, or null for unknown, deleted and malformed ids. */
export const findPublishableKey = (medspaId: string, id: string) =>
  isEntityId(id) ? getEntity(publishableKeyCodec, medspaId, id) : Promise.resolve(null);

/** A versioned change of a key as read (`expectedVersion`): `absent` once deleted, `version` when changed meanwhile. */
export const updatePublishableKey = (
  medspaId: string,
  id: string,
  changes: Record<string, unknown>,
  options: { expectedVersion: number; now: string },
) => updateEntity(publishableKeyCodec, medspaId, id, changes, options);

/** Deletes a key (gone at once from the table; containers that cached it stop within their cache time). */
export const deletePublishableKey = (medspaId: string, id: string) => deleteEntity(medspaId, 'PKEY', id);

/**
 * What a public call stands on: the key (null when deleted or never made) and its practice, in one
 * strongly consistent BatchGetItem.
 */
export async function readPublicAccess(
  medspaId: string,
  keyId: string,
): Promise<{ key: PublishableKeyRecord | null; practice: PracticeRecord | null }> {
  const keyKey = entityKey(medspaId, 'PKEY', keyId);
  const ofPractice = practiceKey(medspaId);
  const found = await readItems([ofPractice, keyKey]);
  return {
    key: publishableKeyCodec.fromItem(found.get(itemId(keyKey))),
    practice: practiceCodec.fromItem(found.get(itemId(ofPractice))),
  };
}
