import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * A public booking through the whole request chain with a publishable key: the Idempotency-Key it
 * requires, the audit entry naming the key and role `public`, and a replay of the same key.
 */
let scene: Scene;
let key: string;
let keyId: string;

beforeAll(async () => {
  scene = await makeOnlineScene();
  const created = await call('POST', '/v1/publishable-keys', {
    token: scene.practice.adminToken,
    body: { name: 'Site', allowed_origins: ['https://spa.example'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  ({ key, id: keyId } = created.body.data);
});

const book = (body: unknown, idempotencyKey?: string) =>
  call('POST', '/v1/public/bookings', {
    body,
    headers: { 'x-publishable-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
  });

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
    const log = await call(
      'GET',
      `/v1/audit-log?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=100`,
      { token: scene.practice.adminToken },
    );
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const entry = log.body.data.find(
      (e: { operation: string; outcome: string }) => e.operation === 'createPublicBooking' && e.outcome === 'success',
    );
    expect(entry).toMatchObject({ client_id: keyId, role: 'public', status: 201 });
  });

  it('20 concurrent bookings of one time: exactly one 201, the rest 409 SLOT_UNAVAILABLE', async () => {
    const at = nyTime(BOOKING_DAY, '16:00');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(onlineBooking(scene, { scheduled_at: at }), `race-${i}-${Date.now()}`)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
      Array.from({ length: 19 }, () => [409, 'SLOT_UNAVAILABLE']),
    );
  });

  it('reschedules a booking the practice gave a room and equipment: it keeps them (its role reads rooms and equipment)', async () => {
    const at = (hhmm: string) => nyTime(BOOKING_DAY, hhmm);
    const email = `roomed.${Date.now()}@example.com`;
    const first = await book(
      onlineBooking(scene, { scheduled_at: at('11:00'), client: { first_name: 'Ro', last_name: 'Omed', email } }),
      `roomed-${Date.now()}`,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const { appointment_id: id, manage_token: token } = first.body.data;
    const placed = await call('PATCH', `/v1/appointments/${id}`, {
      token: scene.practice.adminToken,
      body: { room_id: scene.room.id, equipment_id: scene.equipment.id },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const moved = await call('POST', `/v1/public/bookings/${id}/reschedule`, {
      body: { scheduled_at: at('12:00') },
      headers: { 'x-publishable-key': key, 'x-booking-token': token },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const staffView = await call('GET', `/v1/appointments/${id}`, { token: scene.practice.adminToken });
    expect(JSON.stringify(staffView.body.data)).toContain(scene.equipment.id);
    expect(JSON.stringify(staffView.body.data)).toContain(scene.room.id);
  });

  it('moves, reads and cancels with the manage token; the same email books again as the same client', async () => {
    const manage = (id: string, token: string, action: string, body: unknown) =>
      call('POST', `/v1/public/bookings/${id}/${action}`, {
        body,
        headers: { 'x-publishable-key': key, 'x-booking-token': token },
      });
    const email = `mover.${Date.now()}@example.com`;
    const at = (hhmm: string) => nyTime(BOOKING_DAY, hhmm);
    const first = await book(
      onlineBooking(scene, { scheduled_at: at('13:00'), client: { first_name: 'Mo', last_name: 'Ver', email } }),
      `move-${Date.now()}`,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const { appointment_id: id, manage_token: token } = first.body.data;

    const moved = await manage(id, token, 'reschedule', { scheduled_at: at('14:00') });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ appointment_id: id, scheduled_at: new Date(at('14:00')).toISOString() });

    // Read back with the token the reschedule handed out (the one before it no longer opens it).
    const read = (manageToken: string) =>
      call('GET', `/v1/public/bookings/${id}`, {
        headers: { 'x-publishable-key': key, 'x-booking-token': manageToken },
      });
    const current = await read(moved.body.data.manage_token);
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    expect(current.body.data).toMatchObject({ appointment_id: id, scheduled_at: new Date(at('14:00')).toISOString() });
    expect((await read(token)).status).toBe(404);

    // The freed 13:00 again, by the same email (an existing client now): the same client, and its hour's claim item reused.
    const second = await book(
      onlineBooking(scene, {
        scheduled_at: at('13:00'),
        client: { first_name: 'Mo', last_name: 'Ver', email: email.toUpperCase() },
      }),
      `again-${Date.now()}`,
    );
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const [a, b] = await Promise.all(
      [id, second.body.data.appointment_id].map((appointment) =>
        call('GET', `/v1/appointments/${appointment}`, { token: scene.practice.adminToken }),
      ),
    );
    expect(b.body.data.client_id).toBe(a.body.data.client_id);

    const cancelled = await manage(second.body.data.appointment_id, second.body.data.manage_token, 'cancel', {});
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');

    // Each change is audited against the appointment it touched, as the key with role public.
    const log = await call('GET', '/v1/audit-log?limit=100', { token: scene.practice.adminToken });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    const entryOf = (answer: { headers: Record<string, string> }) =>
      log.body.data.find((entry: { request_id: string }) => entry.request_id === answer.headers['x-request-id']);
    expect([first, moved, second, cancelled].map(entryOf)).toEqual([
      expect.objectContaining({
        operation: 'createPublicBooking',
        resource_id: id,
        client_id: keyId,
        role: 'public',
        outcome: 'success',
        status: 201,
      }),
      expect.objectContaining({
        operation: 'reschedulePublicBooking',
        resource_id: id,
        client_id: keyId,
        role: 'public',
        outcome: 'success',
        status: 200,
      }),
      expect.objectContaining({
        operation: 'createPublicBooking',
        resource_id: second.body.data.appointment_id,
        client_id: keyId,
        role: 'public',
        status: 201,
      }),
      expect.objectContaining({
        operation: 'cancelPublicBooking',
        resource_id: second.body.data.appointment_id,
        client_id: keyId,
        role: 'public',
        outcome: 'success',
        status: 200,
      }),
    ]);
  });
});
