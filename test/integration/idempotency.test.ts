import { beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lib/db/client';
import { call } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { book, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
});

const keyed = (key: string, method: string, url: string, body: unknown, token = scene.practice.adminToken) =>
  call(method, url, { token, body, headers: { 'idempotency-key': key } });

const bookingBody = (hhmm: string) => ({
  client_id: scene.client.id,
  service_id: scene.service.id,
  provider_id: scene.provider.id,
  scheduled_at: nyTime(BOOKING_DAY, hhmm),
});

describe('Idempotency-Key (contract 1)', () => {
  it('a retried booking replays the first answer (same status and body), not PROVIDER_UNAVAILABLE', async () => {
    const key = `booking-${Date.now()}`;
    const first = await keyed(key, 'POST', '/v1/appointments', bookingBody('09:00'));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const retry = await keyed(key, 'POST', '/v1/appointments', bookingBody('09:00'));
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it("a 5xx gives the key back (the route's role may delete its claim): the retry runs the operation", async () => {
    let failNext = true;
    const name = 'failOneTransaction';
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        if (failNext && context.commandName === 'TransactWriteItemsCommand') {
          failNext = false;
          throw new Error('the table is unreachable');
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      const key = `release-${Date.now()}`;
      const failed = await keyed(key, 'POST', '/v1/appointments', bookingBody('10:00'));
      expect(failed.status).toBe(500);
      const retry = await keyed(key, 'POST', '/v1/appointments', bookingBody('10:00'));
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      ddb().middlewareStack.remove(name);
    }
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, and nothing is booked', async () => {
    const key = `reuse-${Date.now()}`;
    expect((await keyed(key, 'POST', '/v1/appointments', bookingBody('11:00'))).status).toBe(201);
    const other = await keyed(key, 'POST', '/v1/appointments', bookingBody('12:00'));
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const list = await call('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}`, {
      token: scene.practice.adminToken,
    });
    expect(
      list.body.data.filter(
        (a: { scheduled_at: string }) => a.scheduled_at === new Date(nyTime(BOOKING_DAY, '12:00')).toISOString(),
      ),
    ).toEqual([]);
  });

  it('10 concurrent same-key bookings make one appointment; all answer it', async () => {
    const key = `race-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => keyed(key, 'POST', '/v1/appointments', bookingBody('14:00'))),
    );
    const ids = new Set(answers.map((answer) => answer.body?.data?.id));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(ids.size).toBe(1);
    const list = await call('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}`, {
      token: scene.practice.adminToken,
    });
    expect(
      list.body.data.filter(
        (a: { scheduled_at: string }) => a.scheduled_at === new Date(nyTime(BOOKING_DAY, '14:00')).toISOString(),
      ),
    ).toHaveLength(1);
  });

  it('10 concurrent same-key payments record one payment and raise the total once', async () => {
    const client = await makeClient(scene.practice);
    const key = `pay-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        keyed(key, 'POST', '/v1/payments', { client_id: client.id, amount_cents: 1234, method: 'card' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    const after = await call('GET', `/v1/clients/${client.id}`, { token: scene.practice.adminToken });
    expect(after.body.data.total_spent_cents).toBe(1234);
    const payments = await call('GET', `/v1/payments?client_id=${client.id}`, { token: scene.practice.adminToken });
    expect(payments.body.data).toHaveLength(1);
  });

  it('a 4xx is stored and replayed; keys are per credential', async () => {
    const key = `bad-${Date.now()}`;
    const bad = { ...bookingBody('15:00'), client_id: '00000000-0000-4000-8000-000000000000' };
    const first = await keyed(key, 'POST', '/v1/appointments', bad);
    expect(first.status).toBe(404);
    const again = await keyed(key, 'POST', '/v1/appointments', bad);
    expect(again.status).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Another credential's same key is its own.
    const frontDesk = await scene.practice.tokenForRole('front_desk');
    const theirs = await keyed(key, 'POST', '/v1/appointments', bookingBody('15:00'), frontDesk);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
  });

  it('a malformed key is 400 naming Idempotency-Key; POSTs without a key behave as before', async () => {
    const response = await keyed('has spaces', 'POST', '/v1/appointments', bookingBody('16:00'));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ path: 'Idempotency-Key', message: expect.any(String) }]);
    expect((await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '16:00') })).status).toBe(201);
  });
});
