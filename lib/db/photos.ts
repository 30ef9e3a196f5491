import type { PageRequest } from '../crypto/cursor';
import type { PhotoRecord } from '../domain/records';
import { getEntity } from './batch';
import { tableName } from './client';
import { photoCodec } from './codecs';
import { DataFailure } from './failure';
import { clientPhotosIndexPk, entityKey } from './keys';
import { queryAll, queryPage, type Page } from './query';
import { isEntityId } from './resources';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, writeOne, type NamedAction } from './transact';

/**
 * Photo metadata: one item per photo in the practice's `PHOTO` collection (GetItem by id), on its
 * client's photo index (gsi2, by upload time) for the list and the client's erasure. The image is
 * an object in storage (lib/storage/photo-objects.ts) under the record's `object_key`.
 */

/** Stores a new photo if its client is still live, in one transaction (a racing client deletion wins: `client` failed). */
export async function putPhoto(
  photo: PhotoRecord,
  writes?: RequestWrites,
): Promise<{ ok: true } | { ok: false; failed: 'client' }> {
  const outcome = await transact<NamedAction<'photo' | 'client'>>(
    [
      {
        name: 'photo',
        action: {
          Put: {
            TableName: tableName(),
            Item: photoCodec.toItem(photo),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      {
        name: 'client',
        action: {
          ConditionCheck: {
            TableName: tableName(),
            Key: entityKey(photo.medspa_id, 'CLIENT', photo.client_id),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          },
        },
      },
    ],
    writes,
  );
  if (outcome.ok) return outcome;
  if (firstFailed(outcome.failed, ['client'])) return { ok: false, failed: 'client' };
  throw new DataFailure('collision', `photo ${photo.id} already exists`);
}

/** The photo, or null (absent or not a well-formed id). */
export const getPhoto = async (medspaId: string, id: string): Promise<PhotoRecord | null> =>
  isEntityId(id) ? getEntity(photoCodec, medspaId, id) : null;

/** A page of the client's photos, newest first, with `total` (the index trails a write by about a second). */
export const listPhotosOf = (medspaId: string, clientId: string, page: PageRequest): Promise<Page<PhotoRecord>> =>
  queryPage(photoCodec, {
    partition: clientPhotosIndexPk(medspaId, clientId),
    index: 'gsi2',
    descending: true,
    ...page,
  });

/** Every photo of the client (its erasure). */
export const allPhotosOf = (medspaId: string, clientId: string): Promise<PhotoRecord[]> =>
  queryAll(photoCodec, { partition: clientPhotosIndexPk(medspaId, clientId), index: 'gsi2' });

/**
 * Records that the object has arrived: `pending` -> `ready`, once (a concurrent read that got
 * there first, or a deletion, leaves it as it is). Answers the record as stored now.
 */
export async function markPhotoReady(photo: PhotoRecord, now: Date): Promise<PhotoRecord> {
  const ready: PhotoRecord = { ...photo, status: 'ready', version: photo.version + 1, updated_at: now.toISOString() };
  await writeOne({
    name: 'photo',
    action: {
      Update: {
        TableName: tableName(),
        Key: entityKey(photo.medspa_id, 'PHOTO', photo.id),
        UpdateExpression: 'SET #status = :ready, #version = :version, #updated = :at',
        ConditionExpression: 'attribute_exists(pk) AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version', '#updated': 'updated_at' },
        ExpressionAttributeValues: {
          ':ready': 'ready',
          ':pending': 'pending',
          ':version': ready.version,
          ':at': ready.updated_at,
        },
      },
    },
  });
  return ready;
}

/** Removes the photo's item (its object is deleted first, by the caller); false when it was already gone. */
export async function deletePhotoItem(photo: Pick<PhotoRecord, 'medspa_id' | 'id'>, writes?: RequestWrites) {
  const outcome = await writeOne(
    {
      name: 'photo',
      action: {
        Delete: {
          TableName: tableName(),
          Key: entityKey(photo.medspa_id, 'PHOTO', photo.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    writes,
  );
  return outcome.ok;
}
