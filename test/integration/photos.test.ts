import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { photoObjectKey } from '../../lib/domain/photos';
import { presignUpload } from '../../lib/storage/photo-objects';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { JPEG, operatorStore, put } from '../fixtures/photo-objects';

/**
 * Section 13's photos against the shared local object store (s3rver behind the SigV4 and IAM
 * front), which sends no notifications: a photo turns ready when read (the fallback; arrival
 * itself: photo-arrival.test.ts).
 */

const store = operatorStore();
afterAll(() => store.destroy());
const stored = store.stored;

const s3Error = async (response: Response) => /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];

let practice: TestPractice;
let clientId: string;
const create = (body: Record<string, unknown> = {}, token = practice.adminToken, client = clientId) =>
  call('POST', `/v1/clients/${client}/photos`, {
    token,
    body: { content_type: 'image/jpeg', byte_size: JPEG.length, phase: 'before', ...body },
  });

beforeAll(async () => {
  practice = await makePractice();
  clientId = (await makeClient(practice)).id;
});

describe('uploads straight to the object store', () => {
  it('takes a pre-signed PUT of the declared bytes; the photo turns ready on read and downloads the same bytes', async () => {
    const created = await create({ area: 'glabella' });
    expect(created.status).toBe(201);
    const photo = created.body.data;
    expect(photo).toMatchObject({ status: 'pending', client_id: clientId, phase: 'before', area: 'glabella' });
    expect(photo.upload).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/jpeg' } });
    expect(Date.parse(photo.upload.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);

    const before = await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    expect(before.body.data.status).toBe('pending');
    expect(before.body.data.download_url).toBeUndefined();

    expect((await put(photo.upload, JPEG)).status).toBe(200);
    const key = photoObjectKey(practice.medspaId, clientId, photo.id);
    expect(await stored(key)).toEqual({ length: JPEG.length, type: 'image/jpeg' });
    // No notification from this store: the upload stays pending until the read below confirms it.
    expect(await store.tags(key)).toEqual({ upload: 'pending' });

    const after = await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ status: 'ready', version: 2 });
    expect(Date.parse(after.body.data.download_expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const download = await fetch(after.body.data.download_url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(JPEG);
    expect(await store.tags(key)).toEqual({ upload: 'confirmed' });
    // Stored as ready: the next read finds it so without asking storage to change anything.
    expect((await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken })).body.data.version).toBe(2);
  });

  it('refuses, as S3 does, an upload of another length or type, without the signed tag, with a tampered signature or an expired URL', async () => {
    const { data: photo } = (await create()).body;
    const key = photoObjectKey(practice.medspaId, clientId, photo.id);
    const longer = await put(photo.upload, Buffer.concat([JPEG, Buffer.from([0])]));
    expect([longer.status, await s3Error(longer)]).toEqual([403, 'SignatureDoesNotMatch']);
    const png = await put(photo.upload, JPEG, { ...photo.upload.headers, 'Content-Type': 'image/png' });
    expect([png.status, await s3Error(png)]).toEqual([403, 'SignatureDoesNotMatch']);
    const { 'x-amz-tagging': _tag, ...untagged } = photo.upload.headers;
    const noTag = await put(photo.upload, JPEG, untagged);
    expect([noTag.status, await s3Error(noTag)]).toEqual([403, 'SignatureDoesNotMatch']);
    const tampered = {
      ...photo.upload,
      url: photo.upload.url.replace(
        /X-Amz-Signature=[0-9a-f]/,
        (m: string) => `${m.slice(0, -1)}${m.endsWith('0') ? '1' : '0'}`,
      ),
    };
    expect(tampered.url).not.toBe(photo.upload.url);
    const forged = await put(tampered, JPEG);
    expect([forged.status, await s3Error(forged)]).toEqual([403, 'SignatureDoesNotMatch']);
    expect(await stored(key)).toBeNull();
    expect((await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken })).body.data.status).toBe(
      'pending',
    );

    // Signed 16 minutes ago for 15: expired.
    const old = await presignUpload(
      `${key}-old`,
      { content_type: 'image/jpeg', byte_size: JPEG.length },
      new Date(Date.now() - 16 * 60_000),
    );
    const expired = await put(old, JPEG);
    expect([expired.status, await s3Error(expired)]).toEqual([403, 'AccessDenied']);
    expect(await stored(`${key}-old`)).toBeNull();
  });

  it("authorizes a pre-signed URL with the signing function's role when it is used: a role without s3:PutObject is refused", async () => {
    const key = photoObjectKey(practice.medspaId, clientId, crypto.randomUUID());
    const declared = { content_type: 'image/jpeg' as const, byte_size: JPEG.length };
    // getPhoto's role may read photos, not upload them.
    const upload = await runAsFunction('getPhoto', () => presignUpload(key, declared, new Date()));
    const refused = await put(upload, JPEG);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('is not authorized to perform: s3:PutObject');
    expect(await stored(key)).toBeNull();
  });
});

describe('deleting', () => {
  const uploaded = async (client = clientId) => {
    const { data: photo } = (await create({}, practice.adminToken, client)).body;
    expect((await put(photo.upload, JPEG)).status).toBe(200);
    return { id: photo.id as string, key: photoObjectKey(practice.medspaId, client, photo.id) };
  };

  it('DELETE /v1/photos/{id} deletes the object, then the photo', async () => {
    const photo = await uploaded();
    expect(await stored(photo.key)).not.toBeNull();
    const deleted = await call('DELETE', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    expect(deleted.body).toMatchObject({ success: true, data: { id: photo.id, deleted: true } });
    expect(await stored(photo.key)).toBeNull();
    const gone = await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    expect([gone.status, gone.body.error.code]).toEqual([404, 'PHOTO_NOT_FOUND']);
  });

  it("erasing the client deletes every one of their photos' objects and items", async () => {
    const other = (await makeClient(practice)).id;
    const photos = await Promise.all([uploaded(other), uploaded(other), uploaded(other)]);
    const kept = await uploaded();
    expect((await call('DELETE', `/v1/clients/${other}`, { token: practice.adminToken })).status).toBe(200);
    for (const photo of photos) {
      expect(await stored(photo.key)).toBeNull();
      expect((await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken })).status).toBe(404);
    }
    expect(await stored(kept.key)).not.toBeNull();
  });
});

describe('lists, roles, audit and validation', () => {
  it("lists a client's photos newest first, paginated", async () => {
    const client = (await makeClient(practice)).id;
    const ids: string[] = [];
    for (const phase of ['before', 'after', 'other'])
      ids.push((await create({ phase }, practice.adminToken, client)).body.data.id);
    const first = await call('GET', `/v1/clients/${client}/photos?limit=2`, { token: practice.adminToken });
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination.total).toBe(3);
    const second = await call(
      'GET',
      `/v1/clients/${client}/photos?limit=2&cursor=${first.body.pagination.next_cursor}`,
      {
        token: practice.adminToken,
      },
    );
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(second.body.pagination.next_cursor).toBeNull();
  });

  it('lets the front desk upload but not read (403); providers read; analysts do neither', async () => {
    const [frontDesk, provider, analyst] = await Promise.all(
      (['front_desk', 'provider', 'analyst'] as const).map((role) => practice.tokenForRole(role)),
    );
    const created = await create({}, frontDesk);
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    for (const path of [`/v1/photos/${id}`, `/v1/clients/${clientId}/photos`]) {
      const denied = await call('GET', path, { token: frontDesk });
      expect([denied.status, denied.body.error.code]).toEqual([403, 'FORBIDDEN']);
      expect((await call('GET', path, { token: provider })).status).toBe(200);
    }
    expect((await call('DELETE', `/v1/photos/${id}`, { token: frontDesk })).status).toBe(403);
    expect((await create({}, analyst)).status).toBe(403);
  });

  it('audits every read of a photo, list included', async () => {
    const { data: photo } = (await create()).body;
    const read = await call('GET', `/v1/photos/${photo.id}`, { token: practice.adminToken });
    const listed = await call('GET', `/v1/clients/${clientId}/photos`, { token: practice.adminToken });
    const log = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    const entries = log.body.data as Array<Record<string, unknown>>;
    expect(entries).toContainEqual(
      expect.objectContaining({
        operation: 'getPhoto',
        method: 'GET',
        resource_id: photo.id,
        outcome: 'success',
        status: 200,
        request_id: read.headers['x-request-id'],
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        operation: 'listClientPhotos',
        resource_id: clientId,
        request_id: listed.headers['x-request-id'],
      }),
    );
  });

  it('replays a create sent again with its Idempotency-Key: the same photo and upload, no second photo', async () => {
    const client = (await makeClient(practice)).id;
    const send = () =>
      call('POST', `/v1/clients/${client}/photos`, {
        token: practice.adminToken,
        headers: { 'idempotency-key': `photo-${client}` },
        body: { content_type: 'image/png', byte_size: 10, phase: 'after' },
      });
    const [first, again] = [await send(), await send()];
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const listed = await call('GET', `/v1/clients/${client}/photos`, { token: practice.adminToken });
    expect(listed.body.pagination.total).toBe(1);
  });

  it('validates the declaration and answers unknown ids with their 404', async () => {
    for (const body of [
      { content_type: 'image/gif' },
      { byte_size: 0 },
      { byte_size: 20_000_001 },
      { byte_size: 1.5 },
      { phase: 'during' },
      { area: '' },
    ]) {
      const refused = await create(body);
      expect([refused.status, refused.body.error.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    expect((await create({ byte_size: 20_000_000, content_type: 'image/heic' })).status).toBe(201);
    const noClient = await create({}, practice.adminToken, crypto.randomUUID());
    expect([noClient.status, noClient.body.error.code]).toEqual([404, 'CLIENT_NOT_FOUND']);
    const noAppointment = await create({ appointment_id: crypto.randomUUID() });
    expect([noAppointment.status, noAppointment.body.error.code]).toEqual([404, 'APPOINTMENT_NOT_FOUND']);
    for (const id of [crypto.randomUUID(), 'not-an-id']) {
      const missing = await call('GET', `/v1/photos/${id}`, { token: practice.adminToken });
      expect([missing.status, missing.body.error.code]).toEqual([404, 'PHOTO_NOT_FOUND']);
    }
    const listNoClient = await call('GET', `/v1/clients/${crypto.randomUUID()}/photos`, { token: practice.adminToken });
    expect(listNoClient.body.error.code).toBe('CLIENT_NOT_FOUND');
  });
});
