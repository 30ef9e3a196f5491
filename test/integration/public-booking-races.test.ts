import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Online booking's per-email rules under concurrency (API reference, online booking): one email is
 * one client, and the per-client limit holds, whatever arrives at once. Every booking names its
 * own provider (ten certified ones) at 10:00, so only the email's rules decide who wins; and each
 * comes from an address of its own, as a visitor with many addresses would send them, so no per-IP
 * rule takes part.
 */

const PARALLEL = 10;

async function sceneWithKey(maxActive: number) {
  const scene = await makeOnlineScene({ providers: PARALLEL, settings: { max_active_bookings_per_client: maxActive } });
  const created = await call('POST', '/v1/publishable-keys', {
    token: scene.practice.adminToken,
    body: { name: 'Site', allowed_origins: ['https://spa.example'] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { scene, key: created.body.data.key as string };
}

let sequence = 0;
const emailOf = (name: string) => `${name}.${Date.now()}.${++sequence}@example.com`;

const bookAs = (scene: Scene, key: string, email: string, providerIndex: number, hhmm = '10:00') =>
  call('POST', '/v1/public/bookings', {
    headers: { 'x-publishable-key': key, 'idempotency-key': `race-${++sequence}` },
    sourceIp: `203.0.113.${(sequence % 250) + 1}`,
    body: onlineBooking(scene, {
      provider_id: scene.providers[providerIndex]!.id,
      scheduled_at: nyTime(BOOKING_DAY, hhmm),
      client: { first_name: 'Sam', last_name: 'Race', email },
    }),
  });

const parallelBookings = (scene: Scene, key: string, email: string) =>
  Promise.all(Array.from({ length: PARALLEL }, (_, i) => bookAs(scene, key, email, i)));

const statuses = (answers: { status: number; body: { error?: { code: string } } }[]) =>
  answers.map((answer) => (answer.status === 201 ? 201 : `${answer.status} ${answer.body.error?.code}`)).sort();

/** The clients the practice has under this email (the staff search), and the client of each booking. */
async function clientsOf(scene: Scene, email: string) {
  const found = await call('GET', `/v1/clients?q=${encodeURIComponent(email)}`, { token: scene.practice.adminToken });
  expect(found.status).toBe(200);
  return (found.body.data as { id: string; email: string }[])
    .filter((client) => client.email.toLowerCase() === email.toLowerCase())
    .map((client) => client.id);
}

const clientOfBooking = async (scene: Scene, appointmentId: string) =>
  (await call('GET', `/v1/appointments/${appointmentId}`, { token: scene.practice.adminToken })).body.data
    .client_id as string;

describe('one client per email, whatever the concurrency', () => {
  it(`${PARALLEL} parallel first bookings by a new email: all booked, as exactly one client`, async () => {
    const { scene, key } = await sceneWithKey(PARALLEL);
    const email = emailOf('first');
    const answers = await parallelBookings(scene, key, email);
    expect(statuses(answers)).toEqual(Array.from({ length: PARALLEL }, () => 201));
    const clients = await clientsOf(scene, email);
    expect(clients).toHaveLength(1);
    const owners = await Promise.all(answers.map((answer) => clientOfBooking(scene, answer.body.data.appointment_id)));
    expect(new Set(owners)).toEqual(new Set(clients));
  });

  it('a client staff made with the email is the one online bookings use (no second client)', async () => {
    const { scene, key } = await sceneWithKey(PARALLEL);
    const existing = await makeClient(scene.practice, { email: emailOf('staff') });
    const answers = await parallelBookings(scene, key, existing.email.toUpperCase());
    expect(statuses(answers)).toEqual(Array.from({ length: PARALLEL }, () => 201));
    expect(await clientsOf(scene, existing.email)).toEqual([existing.id]);
  });
});

describe('the per-client limit, whatever the concurrency', () => {
  it(`a new email with a limit of 1: ${PARALLEL} parallel bookings, exactly one 201`, async () => {
    const { scene, key } = await sceneWithKey(1);
    const answers = await parallelBookings(scene, key, emailOf('one'));
    expect(statuses(answers)).toEqual([
      201,
      ...Array.from({ length: PARALLEL - 1 }, () => '409 BOOKING_LIMIT_REACHED'),
    ]);
  });

  it(`one booking left (2 of 3 held): ${PARALLEL} parallel bookings, exactly one 201`, async () => {
    const { scene, key } = await sceneWithKey(3);
    const email = emailOf('left1');
    for (const hhmm of ['13:00', '14:00']) expect((await bookAs(scene, key, email, 0, hhmm)).status).toBe(201);
    const answers = await parallelBookings(scene, key, email);
    expect(statuses(answers)).toEqual([
      201,
      ...Array.from({ length: PARALLEL - 1 }, () => '409 BOOKING_LIMIT_REACHED'),
    ]);
  });

  it(`three bookings left (a client staff made): ${PARALLEL} parallel bookings, exactly three 201`, async () => {
    const { scene, key } = await sceneWithKey(3);
    const existing = await makeClient(scene.practice, { email: emailOf('left3') });
    const answers = await parallelBookings(scene, key, existing.email);
    expect(statuses(answers)).toEqual([
      201,
      201,
      201,
      ...Array.from({ length: PARALLEL - 3 }, () => '409 BOOKING_LIMIT_REACHED'),
    ]);
  });
});

describe('the ledger follows every write that adds, moves or ends an online booking', () => {
  it('a staff cancel or delete gives the booking back; a staff-made online booking counts, and a staff move keeps it held', async () => {
    const { scene, key } = await sceneWithKey(1);
    const email = emailOf('ledger');
    const first = await bookAs(scene, key, email, 0, '09:00');
    expect(first.status).toBe(201);
    expect((await bookAs(scene, key, email, 1, '09:00')).body.error?.code).toBe('BOOKING_LIMIT_REACHED');
    const staff = { token: scene.practice.adminToken };
    expect(
      (await call('POST', `/v1/appointments/${first.body.data.appointment_id}/cancel`, { ...staff, body: {} })).status,
    ).toBe(200);

    const second = await bookAs(scene, key, email, 1, '09:00');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect((await call('DELETE', `/v1/appointments/${second.body.data.appointment_id}`, staff)).status).toBe(200);

    // Staff book the same client with source online: it counts against the limit.
    const clientId = (await clientsOf(scene, email))[0]!;
    const byStaff = await call('POST', '/v1/appointments', {
      ...staff,
      body: {
        client_id: clientId,
        service_id: scene.service.id,
        provider_id: scene.providers[2]!.id,
        scheduled_at: nyTime(BOOKING_DAY, '11:00'),
        source: 'online',
      },
    });
    expect(byStaff.status, JSON.stringify(byStaff.body)).toBe(201);
    expect((await bookAs(scene, key, email, 3, '09:00')).body.error?.code).toBe('BOOKING_LIMIT_REACHED');
    // Moved by staff, still held; cancelled, given back.
    expect(
      (
        await call('PATCH', `/v1/appointments/${byStaff.body.data.id}`, {
          ...staff,
          body: { scheduled_at: nyTime(BOOKING_DAY, '13:00') },
        })
      ).status,
    ).toBe(200);
    expect((await bookAs(scene, key, email, 3, '09:00')).body.error?.code).toBe('BOOKING_LIMIT_REACHED');
    expect((await call('POST', `/v1/appointments/${byStaff.body.data.id}/cancel`, { ...staff, body: {} })).status).toBe(
      200,
    );
    expect((await bookAs(scene, key, email, 3, '09:00')).status).toBe(201);
  });

  it("a no-show gives the booking back; a deleted client's email books again as a new client, its item pointed at it", async () => {
    const { scene, key } = await sceneWithKey(1);
    const email = emailOf('gone');
    const staff = { token: scene.practice.adminToken };
    const first = await bookAs(scene, key, email, 0, '09:00');
    expect(first.status).toBe(201);
    for (const status of ['confirmed', 'checked_in'])
      expect(
        (
          await call('PATCH', `/v1/appointments/${first.body.data.appointment_id}/status`, {
            ...staff,
            body: { status },
          })
        ).status,
      ).toBe(200);
    expect(
      (await call('POST', `/v1/appointments/${first.body.data.appointment_id}/no-show`, { ...staff, body: {} })).status,
    ).toBe(200);

    const second = await bookAs(scene, key, email, 1, '09:00');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const before = await clientOfBooking(scene, second.body.data.appointment_id);
    expect((await call('DELETE', `/v1/clients/${before}`, staff)).status).toBe(200);
    const third = await bookAs(scene, key, email, 2, '09:00');
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    const after = await clientOfBooking(scene, third.body.data.appointment_id);
    expect(after).not.toBe(before);
    expect(await clientsOf(scene, email)).toEqual([after]);
    // The new client is the email's now: its next booking is over the limit.
    expect((await bookAs(scene, key, email, 3, '09:00')).body.error?.code).toBe('BOOKING_LIMIT_REACHED');
  });
});
