import { beforeAll, describe, expect, it } from 'vitest';
import { call, type CallResult } from '../fixtures/api';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Idempotency-Key scope and order (API reference, conventions): keys are the caller's (a public
 * caller is its publishable key, client IP and booking token), a replay comes only after the
 * caller's checks, and a refusal before any work is never stored under the key.
 */
let scene: Scene;
let key: string;
let sequence = 0;
const idempotencyKey = () => `scope-${Date.now()}-${++sequence}`;

beforeAll(async () => {
  scene = await makeOnlineScene();
  const created = await call('POST', '/v1/publishable-keys', {
    token: scene.practice.adminToken,
    body: { name: 'Site', allowed_origins: ['https://spa.example'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  key = created.body.data.key;
});

const publicCall = (
  path: string,
  body: unknown,
  options: { idempotencyKey: string; sourceIp?: string; bookingToken?: string },
) =>
  call('POST', path, {
    body,
    sourceIp: options.sourceIp,
    headers: {
      'x-publishable-key': key,
      'idempotency-key': options.idempotencyKey,
      ...(options.bookingToken === undefined ? {} : { 'x-booking-token': options.bookingToken }),
    },
  });

/** Nothing of the first answer: no manage token, no appointment id, and not marked as a replay. */
function leaksNothing(answer: CallResult, first: CallResult) {
  expect(answer.headers['idempotent-replayed']).toBeUndefined();
  const text = JSON.stringify(answer.body);
  expect(text).not.toContain(first.body.data.manage_token);
  expect(text).not.toContain('manage_token');
}

describe('public calls: a replay never reaches another visitor', () => {
  it('a booking replayed from another client IP runs afresh (the time is taken) and hands back nothing of the first', async () => {
    const body = onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '09:00') });
    const sameKey = idempotencyKey();
    const first = await publicCall('/v1/public/bookings', body, { idempotencyKey: sameKey, sourceIp: '198.51.100.7' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await publicCall('/v1/public/bookings', body, { idempotencyKey: sameKey, sourceIp: '198.51.100.7' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.manage_token).toBe(first.body.data.manage_token);

    const elsewhere = await publicCall('/v1/public/bookings', body, {
      idempotencyKey: sameKey,
      sourceIp: '203.0.113.9',
    });
    expect([elsewhere.status, elsewhere.body.error?.code]).toEqual([409, 'SLOT_UNAVAILABLE']);
    leaksNothing(elsewhere, first);
  });

  it.each(['cancel', 'reschedule'] as const)(
    '%s replayed with a wrong or missing booking token: 404, nothing of the first answer',
    async (action) => {
      const booked = await publicCall(
        '/v1/public/bookings',
        onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, action === 'cancel' ? '11:00' : '12:00') }),
        { idempotencyKey: idempotencyKey() },
      );
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      const { appointment_id: id, manage_token: token } = booked.body.data;
      const path = `/v1/public/bookings/${id}/${action}`;
      const body = action === 'cancel' ? {} : { scheduled_at: nyTime(BOOKING_DAY, '15:00') };
      const sameKey = idempotencyKey();
      const first = await publicCall(path, body, { idempotencyKey: sameKey, bookingToken: token });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body.data.manage_token).toEqual(expect.any(String));

      for (const bookingToken of ['wrong', undefined, `${token.slice(0, -4)}AAAA`]) {
        const replay = await publicCall(path, body, { idempotencyKey: sameKey, bookingToken });
        expect([replay.status, replay.body.error?.code]).toEqual([404, 'APPOINTMENT_NOT_FOUND']);
        leaksNothing(replay, first);
      }
      const fromElsewhere = await publicCall(path, body, {
        idempotencyKey: sameKey,
        bookingToken: token,
        sourceIp: '203.0.113.10',
      });
      expect(fromElsewhere.headers['idempotent-replayed']).toBeUndefined();
      expect(fromElsewhere.body.data?.manage_token).not.toBe(first.body.data.manage_token);
    },
  );

  it('a call refused for its Origin is not stored: the same key from the page afterwards books', async () => {
    const body = onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '13:00') });
    const sameKey = idempotencyKey();
    const refused = await call('POST', '/v1/public/bookings', {
      body,
      headers: { 'x-publishable-key': key, 'idempotency-key': sameKey, origin: 'https://evil.example' },
    });
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const allowed = await call('POST', '/v1/public/bookings', {
      body,
      headers: { 'x-publishable-key': key, 'idempotency-key': sameKey, origin: 'https://spa.example' },
    });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    expect(allowed.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('staff calls: a refusal is not an answer to keep', () => {
  it('a create refused for its Origin (403) and sent again without one runs: 201, not the stored 403', async () => {
    const body = {
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      scheduled_at: nyTime(BOOKING_DAY, '16:00'),
    };
    const sameKey = idempotencyKey();
    const refused = await call('POST', '/v1/appointments', {
      token: scene.practice.adminToken,
      body,
      headers: { 'idempotency-key': sameKey, origin: 'https://evil.example' },
    });
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const fromServer = await call('POST', '/v1/appointments', {
      token: scene.practice.adminToken,
      body,
      headers: { 'idempotency-key': sameKey },
    });
    expect(fromServer.status, JSON.stringify(fromServer.body)).toBe(201);
    expect(fromServer.headers['idempotent-replayed']).toBeUndefined();
    const again = await call('POST', '/v1/appointments', {
      token: scene.practice.adminToken,
      body,
      headers: { 'idempotency-key': sameKey },
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
