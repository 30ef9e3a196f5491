import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { ddb, tableName } from '../../lib/db/client';
import { readIdempotencyRecord } from '../../lib/db/idempotency';
import { idempotencyKey } from '../../lib/db/keys';
import { call } from '../fixtures/api';
import { startReceiver, type Receiver } from '../fixtures/receiver';
import { booked, makeScene, type Scene } from '../fixtures/scheduling';

/**
 * Every keyed POST commits its Idempotency-Key marker (`committed_at`) with its own writes, in
 * the same round trip: then a request that dies after its change committed, before its answer
 * was stored, is never run again by a retry with the same key. These are the POSTs whose write
 * is a single item (the transactional ones always carried the marker).
 */
let scene: Scene;
let receiver: Receiver;

beforeAll(async () => {
  process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
  resetConfig();
  scene = await makeScene();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  delete process.env.ALLOW_LOCAL_WEBHOOKS;
  resetConfig();
});

const keyed = (key: string, url: string, body?: unknown) =>
  call('POST', url, { token: scene.practice.adminToken, body, headers: { 'idempotency-key': key } });

const recordOf = (key: string) => readIdempotencyRecord(scene.practice.medspaId, scene.practice.clientId, key);

describe('the Idempotency-Key marker of POSTs that write one item', () => {
  it('is committed with the write: rooms, equipment, providers, credentials, webhooks, secret rotations, reminders', async () => {
    const webhook = (await keyed(`hook-${Date.now()}`, '/v1/webhooks', { url: receiver.url(), events: ['*'] })).body
      .data;
    const appointment = await booked(scene);
    const posts: Array<[url: string, body?: unknown]> = [
      ['/v1/rooms', { name: 'Marked room' }],
      ['/v1/equipment', { name: 'Marked laser' }],
      ['/v1/providers', { first_name: 'Marked', last_name: 'Provider' }],
      ['/v1/credentials', { name: 'marked', role: 'front_desk' }],
      ['/v1/webhooks', { url: receiver.url(), events: ['client.created'] }],
      [`/v1/webhooks/${webhook.id}/rotate-secret`],
      [`/v1/appointments/${appointment.id}/reminders`],
    ];
    for (const [url, body] of posts) {
      const key = `marked-${url}-${Date.now()}`;
      const answer = await keyed(key, url, body);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      const record = await recordOf(key);
      expect(record?.committed_at, url).toEqual(expect.any(String));
      expect(record?.status, url).toBe('completed');
    }
  });

  it('is committed with the logged attempt of a webhook test and of a retried delivery', async () => {
    const webhook = (await keyed(`hook-test-${Date.now()}`, '/v1/webhooks', { url: receiver.url(), events: ['*'] }))
      .body.data;
    const testKey = `marked-test-${Date.now()}`;
    const tested = await keyed(testKey, `/v1/webhooks/${webhook.id}/test`);
    expect(tested.status, JSON.stringify(tested.body)).toBeLessThan(300);
    const retryKey = `marked-retry-${Date.now()}`;
    const retried = await keyed(retryKey, `/v1/webhooks/${webhook.id}/deliveries/${tested.body.data.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBeLessThan(300);
    for (const key of [testKey, retryKey]) {
      const record = await recordOf(key);
      expect(record?.committed_at, key).toEqual(expect.any(String));
      expect(record?.status, key).toBe('completed');
    }
  });

  it('keeps a retry of a create that died after committing from running again', async () => {
    const key = `died-${Date.now()}`;
    const name = `Once ${Date.now()}`;
    expect((await keyed(key, '/v1/rooms', { name })).status).toBe(201);
    // As if the request had died between its write and storing its answer, its claim long expired.
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: idempotencyKey(scene.practice.medspaId, scene.practice.clientId, key),
        UpdateExpression: 'SET #status = :inProgress, locked_until = :past REMOVE #response',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: { ':inProgress': 'in_progress', ':past': Date.now() - 120_000 },
      }),
    );
    const retry = await keyed(key, '/v1/rooms', { name });
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const rooms = await call('GET', '/v1/rooms?limit=100', { token: scene.practice.adminToken });
    expect(rooms.body.data.filter((room: { name: string }) => room.name === name)).toHaveLength(1);
  });
});
