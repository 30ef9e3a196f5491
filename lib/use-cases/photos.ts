import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { deletePhotoItem, getPhoto, listPhotosOf, markPhotoReady, putPhoto } from '../db/photos';
import type { RequestWrites } from '../db/request-writes';
import { arrivalAction, parsePhotoObjectKey, photoObjectKey } from '../domain/photos';
import type { PhotoRecord } from '../domain/records';
import { AppError } from '../errors';
import type { CreatedPhoto, CreatePhotoInput, Photo } from '../schemas/photos';
import { confirmObject, deleteObject, objectExists, presignDownload, presignUpload } from '../storage/photo-objects';
import { checkClientsAppointment, ofLiveClient, readNamedAppointment } from './clients';
import { failureOf } from './failures';
import { toListResult, type ListResult } from './list-result';

/**
 * Clinical photos (API reference, section 13): metadata in the table, the image in object storage,
 * uploaded and downloaded straight from there through pre-signed URLs (the API never carries the
 * bytes). A photo is `pending` until its object arrives, then `ready` for good: the storage's
 * notification of the arrival confirms it (confirmArrival), a read that finds the object first
 * does too (docs/decisions/0028).
 */

const presentPhoto = (photo: PhotoRecord): Photo => ({
  id: photo.id,
  client_id: photo.client_id,
  appointment_id: photo.appointment_id,
  phase: photo.phase,
  area: photo.area,
  content_type: photo.content_type,
  byte_size: photo.byte_size,
  status: photo.status,
  version: photo.version,
  created_at: photo.created_at,
  updated_at: photo.updated_at,
});

export async function createPhoto(
  medspaId: string,
  clientId: string,
  input: CreatePhotoInput,
  now: Date,
  writes?: RequestWrites,
): Promise<CreatedPhoto> {
  const appointmentId = input.appointment_id ?? null;
  const appointment = await ofLiveClient(medspaId, clientId, () => readNamedAppointment(medspaId, appointmentId));
  checkClientsAppointment(clientId, appointmentId, appointment);
  const id = randomUUID();
  const at = now.toISOString();
  const photo: PhotoRecord = {
    id,
    medspa_id: medspaId,
    client_id: clientId,
    appointment_id: appointmentId,
    phase: input.phase,
    area: input.area ?? null,
    content_type: input.content_type,
    byte_size: input.byte_size,
    status: 'pending',
    object_key: photoObjectKey(medspaId, clientId, id),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  // A client deleted since the check above fails the write (its deletion committed first).
  const result = await putPhoto(photo, writes);
  if (!result.ok) throw failureOf({ client: 'CLIENT_NOT_FOUND' }, result);
  return { ...presentPhoto(photo), upload: await presignUpload(photo.object_key, photo, now) };
}

/**
 * An object has arrived under `key` (the photos-arrival worker; S3 delivers at least once, so
 * running it again changes nothing more). Its pending photo is confirmed (the object re-tagged,
 * then the item made ready, so a ready photo never has an object the orphan rule would expire); an
 * object no photo names (deleted, or its client erased, while the upload URL was still valid) is
 * deleted.
 */
export async function confirmArrival(key: string, now: Date): Promise<'ready' | 'orphan'> {
  const ids = parsePhotoObjectKey(key);
  const photo = ids ? await getPhoto(ids.medspaId, ids.photoId) : null;
  if (!photo || arrivalAction(photo, key) === 'orphan') {
    await deleteObject(key);
    return 'orphan';
  }
  await confirmObject(key);
  if (photo.status === 'pending') await markPhotoReady(photo, now);
  return 'ready';
}

/**
 * The photo as answered: a pending one whose object has arrived (and whose notification has not
 * been handled yet) becomes ready first (stored, and
 * the object confirmed so the orphan lifecycle rule leaves it), and a ready one gets a download URL.
 */
async function withDownload(photo: PhotoRecord, now: Date): Promise<Photo> {
  let current = photo;
  if (current.status === 'pending' && (await objectExists(current.object_key))) {
    await confirmObject(current.object_key);
    current = await markPhotoReady(current, now);
  }
  if (current.status !== 'ready') return presentPhoto(current);
  const download = await presignDownload(current.object_key, now);
  return { ...presentPhoto(current), download_url: download.url, download_expires_at: download.expires_at };
}

export async function readPhoto(medspaId: string, id: string, now: Date): Promise<Photo> {
  const photo = await getPhoto(medspaId, id);
  if (!photo) throw new AppError('PHOTO_NOT_FOUND');
  return withDownload(photo, now);
}

/** A page of the client's photos, newest first. */
export async function listPhotos(
  medspaId: string,
  clientId: string,
  query: { limit: number; cursor?: string },
  now: Date,
): Promise<ListResult<Photo>> {
  const page = pageRequest(medspaId, 'photos', { ...query, client_id: clientId });
  const found = await ofLiveClient(medspaId, clientId, () => listPhotosOf(medspaId, clientId, page));
  return toListResult({ ...found, items: await Promise.all(found.items.map((photo) => withDownload(photo, now))) });
}

/** Deletes the image, then the photo (a retry after a failure in between finds the photo and deletes again). */
export async function removePhoto(
  medspaId: string,
  id: string,
  options: { ifMatch?: number; writes?: RequestWrites },
): Promise<{ id: string; deleted: true }> {
  const photo = await getPhoto(medspaId, id);
  if (!photo) throw new AppError('PHOTO_NOT_FOUND');
  if (options.ifMatch !== undefined && options.ifMatch !== photo.version) throw new AppError('VERSION_CONFLICT');
  await deleteObject(photo.object_key);
  if (!(await deletePhotoItem(photo, options.writes))) throw new AppError('PHOTO_NOT_FOUND');
  return { id, deleted: true };
}
