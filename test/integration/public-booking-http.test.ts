import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import type { Scene } from '../fixtures/scheduling';

/**
 * A public booking through the whole request chain with a publishable key: the Idempotency-Key it
 * requires, the audit entry naming the key and role `public`, and a replay of the same key.
 */
let scene: Scene;
let key: string;
let keyId: string;

beforeAll(async () => {
  scene = await makeOnlineScene();
  const created = await call('POST', '/v1/publishable-keys', { token: scene.practice.adminToken, body: { name: 'Site', allowed_origins: ['https://spa.example'] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  ({ key, id: keyId } = created.body.data);
});

const book = (body: unknown, idempotencyKey?: string) =>
  call('POST', '/v1/public/bookings', { body, headers: { 'x-publishable-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) } });

describe('POST /v1/public/bookings through the request chain', () => {
  it('requires an Idempotency-Key (400 naming it, nothing booked)', async () => {
    const answer = await book(onlineBooking(scene));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'Idempotency-Key' }] });
  });

  it('books, replays the same key with the same answer, and is audited as the key with role public', async () => {
    const body = onlineBooking(scene);
    const idempotencyKey = `web-${Date.now()}`;
    const first = await book(body, idempotencyKey);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await book(body, idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.appointment_id).toBe(first.body.data.appointment_id);

    const from = new Date(Date.now() - 60_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const log = await call('GET', `/v1/audit-log?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=100`, { token: scene.practice.adminToken });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const entry = log.body.data.find((e: { operation: string; outcome: string }) => e.operation === 'createPublicBooking' && e.outcome === 'success');
    expect(entry).toMatchObject({ client_id: keyId, role: 'public', status: 201 });
  });
});
