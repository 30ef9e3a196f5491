import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { getPhoto } from '../../lib/db/photos';
import { photoObjectKey } from '../../lib/domain/photos';
import { resetPhotoObjects } from '../../lib/storage/photo-objects';
import { startLocalObjectStore, type LocalObjectStore } from '../../infra/local/object-store';
import { localPhotoArrival } from '../../infra/local/photo-arrivals';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { JPEG, operatorStore, put } from '../fixtures/photo-objects';

/**
 * Section 13's photos are ready as soon as the upload has arrived (decision 0028): this file runs
 * its own object store with the bucket's notification wired as `npm start` wires it (the
 * confirmPhotoUploads worker, as that function, before the PUT is answered), so each PUT's effects
 * are there when it answers. The photo's item is read below HTTP: a GET would confirm it itself.
 */

let objects: LocalObjectStore;
let store: ReturnType<typeof operatorStore>;
let practice: TestPractice;
let clientId: string;

beforeAll(async () => {
  objects = await startLocalObjectStore({
    directory: mkdtempSync(join(tmpdir(), 's3-')),
    onObjectCreated: localPhotoArrival,
  });
  process.env.S3_ENDPOINT = objects.endpoint;
  process.env.PHOTOS_BUCKET = objects.bucket;
  resetConfig();
  resetPhotoObjects();
  store = operatorStore(objects.endpoint, objects.bucket);
  practice = await makePractice();
  clientId = (await makeClient(practice)).id;
});

afterAll(async () => {
  store.destroy();
  resetPhotoObjects();
  await objects.stop();
});

/** A photo started over HTTP (its upload URL), with its object key. */
async function started(client = clientId) {
  const created = await call('POST', `/v1/clients/${client}/photos`, {
    token: practice.adminToken,
    body: { content_type: 'image/jpeg', byte_size: JPEG.length, phase: 'after' },
  });
  expect(created.status).toBe(201);
  const photo = created.body.data;
  return { ...photo, key: photoObjectKey(practice.medspaId, client, photo.id) };
}

describe('a photo is confirmed when its upload arrives', () => {
  it('is ready, and its object confirmed, without any read of it', async () => {
    const photo = await started();
    expect(await store.tags(photo.key).catch(() => null)).toBeNull();
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    expect(await getPhoto(practice.medspaId, photo.id)).toMatchObject({ status: 'ready', version: 2 });
    // The orphan lifecycle rule expires only objects still tagged pending.
    expect(await store.tags(photo.key)).toEqual({ upload: 'confirmed' });
    expect(await store.stored(photo.key)).toEqual({ length: JPEG.length, type: 'image/jpeg' });
    // Read now, it is ready as stored (no second confirmation: the version stays).
    const read = await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    expect(read.body.data).toMatchObject({ status: 'ready', version: 2 });
    expect(read.body.data.download_url).toBeDefined();
  });

  it('changes nothing more when the notification comes again, one after another or at once', async () => {
    const photo = await started();
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    const once = await getPhoto(practice.medspaId, photo.id);
    await localPhotoArrival(photo.key);
    await Promise.all(Array.from({ length: 4 }, () => localPhotoArrival(photo.key)));
    expect(await getPhoto(practice.medspaId, photo.id)).toEqual(once);
    expect(once).toMatchObject({ status: 'ready', version: 2 });
    expect(await store.tags(photo.key)).toEqual({ upload: 'confirmed' });
    expect(await store.stored(photo.key)).not.toBeNull();
  });

  it('confirms an upload sent again with the same URL (its object tagged pending anew) without touching the ready item', async () => {
    const photo = await started();
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    const ready = await getPhoto(practice.medspaId, photo.id);
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    expect(await store.tags(photo.key)).toEqual({ upload: 'confirmed' });
    expect(await getPhoto(practice.medspaId, photo.id)).toEqual(ready);
  });
});

describe('an upload whose photo is gone is an orphan', () => {
  it('leaves no object when the photo was deleted before its upload arrived, and a repeat changes nothing', async () => {
    const photo = await started();
    expect((await call('DELETE', `/v1/photos/${photo.id}`, { token: practice.adminToken })).status).toBe(200);
    // The URL is still valid: storage takes the upload, its notification deletes it.
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    expect(await store.stored(photo.key)).toBeNull();
    await localPhotoArrival(photo.key);
    expect(await store.stored(photo.key)).toBeNull();
    expect(await getPhoto(practice.medspaId, photo.id)).toBeNull();
  });

  it('leaves no object when the client was erased before the upload arrived', async () => {
    const erased = (await makeClient(practice)).id;
    const photo = await started(erased);
    expect((await call('DELETE', `/v1/clients/${erased}`, { token: practice.adminToken })).status).toBe(200);
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    expect(await store.stored(photo.key)).toBeNull();
  });
});
