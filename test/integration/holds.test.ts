import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { overlaps } from '../../lib/domain/availability';
import { confirmHold, createHold, placeHold } from '../../lib/use-cases/holds';
import { call } from '../fixtures/api';
import { counted } from '../fixtures/ddb-calls';
import { makeService } from '../fixtures/builders';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, book, claimItems, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Holds (API reference, holds): a hold claims its time as an appointment does, until it expires
 * (with no sweep); a confirm books it in one atomic write; public holds are limited per client IP.
 */

afterEach(() => setClock(null));

let sequence = 0;
const TEN = nyTime(BOOKING_DAY, '10:00');

const staff = (scene: Scene) => ({ token: scene.practice.adminToken });
const hold = (scene: Scene, body: Record<string, unknown> = {}) =>
  call('POST', '/v1/holds', {
    ...staff(scene),
    body: { service_id: scene.service.id, provider_id: scene.provider.id, scheduled_at: TEN, ...body },
  });
const confirm = (scene: Scene, id: string, body: Record<string, unknown> = {}) =>
  call('POST', `/v1/holds/${id}/confirm`, { ...staff(scene), body: { client_id: scene.client.id, ...body } });
const getHold = (scene: Scene, id: string) => call('GET', `/v1/holds/${id}`, staff(scene));
const codeOf = (answer: { status: number; body: { error?: { code: string } } }) =>
  answer.status < 300 ? answer.status : answer.body.error?.code;
/** The clock `seconds` ahead of real time, still moving. */
const clockAhead = (seconds: number) => setClock(() => new Date(Date.now() + seconds * 1000));

describe('a staff hold claims its time as an appointment does', () => {
  it('blocks a create and another hold on its provider and room (details name hold_id), and slots leave it out', async () => {
    const scene = await makeScene({ providers: 2 });
    const held = await hold(scene, { room_id: scene.room.id, expires_in_seconds: 120 });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(held.body.data).toMatchObject({
      status: 'active',
      provider_id: scene.provider.id,
      room_id: scene.room.id,
      duration_minutes: 60,
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      deposit_required_cents: 0,
    });
    const id = held.body.data.id as string;
    expect(Date.parse(held.body.data.expires_at) - Date.parse(held.body.data.created_at)).toBe(120_000);

    const create = await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '10:30') });
    expect(create.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(create.body.error.details).toEqual([expect.objectContaining({ reason: 'overlap', hold_id: id })]);
    expect(create.body.error.details[0].appointment_id).toBeUndefined();
    const other = await hold(scene, {
      provider_id: scene.providers[0]!.id,
      scheduled_at: nyTime(BOOKING_DAY, '10:45'),
    });
    expect(codeOf(other)).toBe('PROVIDER_UNAVAILABLE');

    const roomTaken = await book(scene, { provider_id: scene.providers[1]!.id, room_id: scene.room.id });
    expect(codeOf(roomTaken)).toBe('ROOM_UNAVAILABLE');
    expect(roomTaken.body.error.details).toEqual([expect.objectContaining({ reason: 'overlap', hold_id: id })]);

    const slots = await call(
      'GET',
      `/v1/providers/${scene.provider.id}/slots?date=${BOOKING_DAY}&duration_minutes=60`,
      staff(scene),
    );
    const starts = (slots.body.data as { slot_start: string }[]).map((slot) => slot.slot_start);
    expect(starts).not.toContain(new Date(TEN).toISOString());
    expect(starts).toContain(new Date(nyTime(BOOKING_DAY, '11:00')).toISOString());

    const check = await call(
      'GET',
      `/v1/providers/${scene.provider.id}/availability?start=${encodeURIComponent(TEN)}&end=${encodeURIComponent(nyTime(BOOKING_DAY, '11:00'))}`,
      staff(scene),
    );
    expect(check.body.data.conflicts).toEqual([expect.objectContaining({ hold_id: id })]);
    expect((await getHold(scene, id)).body.data.status).toBe('active');
  });

  it('a 60 s hold blocks until it expires and nothing after, with no sweep: the create commits and prunes its entry; the hold reads expired and cannot be confirmed', async () => {
    const scene = await makeScene();
    const held = await hold(scene, { expires_in_seconds: 60 });
    const id = held.body.data.id as string;
    clockAhead(59);
    expect(codeOf(await book(scene))).toBe('PROVIDER_UNAVAILABLE');
    clockAhead(61);
    expect((await book(scene)).status).toBe(201);
    const entries = (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).flatMap((bucket) =>
      Object.keys(bucket.entries),
    );
    expect(entries).not.toContain(id);
    expect((await getHold(scene, id)).body.data.status).toBe('expired');
    expect(codeOf(await confirm(scene, id))).toBe('HOLD_EXPIRED');
  });

  it('with the real clock: a hold blocks until its expires_at and nothing after (a 1 s hold, placed below HTTP)', async () => {
    const scene = await makeScene();
    const { hold: held } = await placeHold(
      scene.practice.medspaId,
      { service_id: scene.service.id, scheduledAt: TEN, providerIds: [scene.provider.id], expiresInSeconds: 1 },
      new Date(),
    );
    expect(codeOf(await book(scene))).toBe('PROVIDER_UNAVAILABLE');
    // Time passing is the subject here: wait out the hold's second.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(held.expires_at) - Date.now()) + 20));
    expect((await book(scene)).status).toBe(201);
  });

  it('a release frees the time at once; a released hold is not active any more', async () => {
    const scene = await makeScene();
    const id = (await hold(scene)).body.data.id as string;
    const released = await call('DELETE', `/v1/holds/${id}`, staff(scene));
    expect(released.status).toBe(200);
    expect(released.body.data).toEqual({ id, deleted: true });
    expect((await book(scene)).status).toBe(201);
    expect((await getHold(scene, id)).body.data.status).toBe('released');
    expect(codeOf(await call('DELETE', `/v1/holds/${id}`, staff(scene)))).toBe('HOLD_NOT_ACTIVE');
    expect(codeOf(await confirm(scene, id))).toBe('HOLD_NOT_ACTIVE');
    expect(codeOf(await getHold(scene, '00000000-0000-4000-8000-000000000000'))).toBe('HOLD_NOT_FOUND');
  });
});

describe('confirm', () => {
  it('10 parallel confirms of one hold: exactly one 201, with hold_id; the hold reads confirmed and the claim is the appointment', async () => {
    const scene = await makeScene();
    const id = (await hold(scene, { room_id: scene.room.id })).body.data.id as string;
    const answers = await Promise.all(Array.from({ length: 10 }, () => confirm(scene, id, { notes: 'Held' })));
    expect(answers.map(codeOf).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 'HOLD_NOT_ACTIVE')]);
    const appointment = answers.find((answer) => answer.status === 201)!.body.data;
    expect(appointment).toMatchObject({
      hold_id: id,
      status: 'scheduled',
      client_id: scene.client.id,
      room_id: scene.room.id,
      scheduled_at: new Date(TEN).toISOString(),
      notes: 'Held',
      price_cents: 25000,
    });
    expect((await getHold(scene, id)).body.data).toMatchObject({ status: 'confirmed', appointment_id: appointment.id });
    for (const [resource, resourceId] of [
      ['PROVIDER', scene.provider.id],
      ['ROOM', scene.room.id],
    ] as const) {
      const entries = (await claimItems(scene.practice.medspaId, resource, resourceId)).flatMap((bucket) =>
        Object.entries(bucket.entries),
      );
      expect(entries).toEqual([[appointment.id, { start: appointment.scheduled_at, end: appointment.end_at }]]);
    }
  });

  it('DynamoDB calls: a hold is one batched read (with a claims Query per resource) and one transaction; a confirm one read of the hold, one batched read (with its claims Queries) and one transaction', async () => {
    const scene = await makeScene();
    const medspaId = scene.practice.medspaId;
    const created = await counted(() =>
      createHold(
        medspaId,
        {
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          room_id: scene.room.id,
          scheduled_at: TEN,
          expires_in_seconds: 600,
        },
        new Date(),
      ),
    );
    // The provider's and the room's claims.
    expect(created.calls).toEqual({ BatchGetItemCommand: 1, QueryCommand: 2, TransactWriteItemsCommand: 1 });
    const confirmed = await counted(() =>
      confirmHold(medspaId, created.result.id, { client_id: scene.client.id, source: 'manual' }, new Date()),
    );
    expect(confirmed.calls).toEqual({
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      QueryCommand: 2,
      TransactWriteItemsCommand: 1,
    });
  });

  it('a client that does not exist: 404 CLIENT_NOT_FOUND, and the hold stays active', async () => {
    const scene = await makeScene();
    const id = (await hold(scene)).body.data.id as string;
    expect(codeOf(await confirm(scene, id, { client_id: '00000000-0000-4000-8000-000000000000' }))).toBe(
      'CLIENT_NOT_FOUND',
    );
    expect((await getHold(scene, id)).body.data.status).toBe('active');
  });

  it('staff creates racing a confirm right at expiry never double-book', async () => {
    const scene = await makeScene();
    const held = (await hold(scene, { expires_in_seconds: 60 })).body.data;
    // The clock reaches the hold's expiry while the requests are in flight.
    const offset = Date.parse(held.expires_at) - 15 - Date.now();
    setClock(() => new Date(Date.now() + offset));
    const answers = await Promise.all([
      confirm(scene, held.id),
      ...Array.from({ length: 6 }, (_, i) =>
        book(scene, { scheduled_at: nyTime(BOOKING_DAY, i % 2 ? '10:30' : '10:00') }),
      ),
    ]);
    expect(answers.filter((answer) => answer.status === 201).length).toBeLessThanOrEqual(1);
    expect(codeOf(answers[0]!)).toMatch(/^(201|HOLD_EXPIRED)$/);
    const entries = (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).flatMap((bucket) =>
      Object.entries(bucket.entries).filter(([, entry]) => !(entry as { hold?: true }).hold),
    );
    for (const [i, [idA, a]] of entries.entries())
      for (const [idB, b] of entries.slice(i + 1)) if (idA !== idB) expect(overlaps(a, b)).toBe(false);
  });
});

describe('public holds', () => {
  async function publicScene(providers = 1) {
    const scene = await makeOnlineScene({ providers });
    const created = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Site', allowed_origins: ['https://spa.example'] },
    });
    return { scene, key: created.body.data.key as string };
  }
  const publicHold = (key: string, body: Record<string, unknown>, sourceIp = '198.51.100.7') =>
    call('POST', '/v1/public/holds', {
      headers: { 'x-publishable-key': key, 'idempotency-key': `hold-${++sequence}` },
      body,
      sourceIp,
    });
  const heldBooking = (scene: Scene, key: string, holdId: string, token: string) =>
    call('POST', '/v1/public/bookings', {
      headers: { 'x-publishable-key': key, 'idempotency-key': `held-${++sequence}`, 'x-hold-token': token },
      body: { hold_id: holdId, client: onlineBooking(scene).client, notes: 'Via hold' },
    });

  it('12 parallel holds from two IPs (6 each): exactly 3 succeed per address; a release gives the place back', async () => {
    const { scene, key } = await publicScene(12);
    const addresses = ['198.51.100.7', '192.0.2.44'];
    const answers = await Promise.all(
      scene.providers.map((provider, i) =>
        publicHold(
          key,
          { service_id: scene.service.id, provider_id: provider.id, scheduled_at: TEN },
          addresses[i % 2],
        ).then((answer) => ({ address: addresses[i % 2], code: codeOf(answer), answer })),
      ),
    );
    for (const address of addresses)
      expect(
        answers
          .filter((a) => a.address === address)
          .map((a) => a.code)
          .sort((a, b) => String(a).localeCompare(String(b))),
        address,
      ).toEqual([201, 201, 201, 'HOLD_LIMIT_REACHED', 'HOLD_LIMIT_REACHED', 'HOLD_LIMIT_REACHED']);
    // Another address has its own three.
    const elsewhere = await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN }, '203.0.113.9');
    expect(elsewhere.status).toBe(201);
    const first = answers.find((a) => a.address === addresses[0] && a.code === 201)!.answer.body.data;
    const released = await call('DELETE', `/v1/public/holds/${first.hold_id}`, {
      headers: { 'x-publishable-key': key, 'x-hold-token': first.hold_token },
      sourceIp: '198.51.100.7',
    });
    expect(released.body.data).toEqual({ id: first.hold_id, deleted: true });
    const again = await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('20 concurrent staff holds, bookings and public holds (each from its own address) on one time: exactly one wins', async () => {
    const { scene, key } = await publicScene();
    const tries = Array.from({ length: 20 }, (_, i) =>
      i % 3 === 0
        ? hold(scene)
        : i % 3 === 1
          ? book(scene)
          : publicHold(key, { service_id: scene.service.id, scheduled_at: TEN }, `198.51.100.${i}`),
    );
    const answers = await Promise.all(tries);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 201))
      expect(codeOf(answer)).toMatch(/^(PROVIDER_UNAVAILABLE|SLOT_UNAVAILABLE)$/);
  });

  it('hold, then book with X-Hold-Token; the held slot is not offered nor holdable; wrong token 404; expired 409', async () => {
    const { scene, key } = await publicScene();
    const held = await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const view = held.body.data;
    expect(view).toMatchObject({
      scheduled_at: new Date(TEN).toISOString(),
      duration_minutes: 60,
      service: { id: scene.service.id },
      provider: { id: scene.provider.id },
      deposit_required_cents: 0,
    });
    expect(Object.keys(view.provider).sort()).toEqual(['display_name', 'id']);
    const offered = await call(
      'GET',
      `/v1/public/availability?service_id=${scene.service.id}&from=${BOOKING_DAY}&to=${BOOKING_DAY}`,
      { headers: { 'x-publishable-key': key } },
    );
    const starts = (offered.body.data as { slots: { slot_start: string }[] }[]).flatMap((day) =>
      day.slots.map((slot) => slot.slot_start),
    );
    expect(starts).not.toContain(view.scheduled_at);
    expect(codeOf(await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN }, '192.0.2.1'))).toBe(
      'SLOT_UNAVAILABLE',
    );

    const other = (await publicHold(key, { service_id: scene.service.id, scheduled_at: nyTime(BOOKING_DAY, '13:00') }))
      .body.data;
    expect(codeOf(await heldBooking(scene, key, view.hold_id, other.hold_token))).toBe('HOLD_NOT_FOUND');
    expect(codeOf(await heldBooking(scene, key, view.hold_id, `${view.hold_token.slice(0, -2)}AA`))).toBe(
      'HOLD_NOT_FOUND',
    );

    const booked = await heldBooking(scene, key, view.hold_id, view.hold_token);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data).toMatchObject({ status: 'scheduled', scheduled_at: view.scheduled_at });
    expect(booked.body.data.manage_token).toEqual(expect.any(String));
    const appointment = await call('GET', `/v1/appointments/${booked.body.data.appointment_id}`, staff(scene));
    expect(appointment.body.data).toMatchObject({ source: 'online', hold_id: view.hold_id, notes: 'Via hold' });
    expect(codeOf(await heldBooking(scene, key, view.hold_id, view.hold_token))).toBe('HOLD_NOT_ACTIVE');

    // A body of either shape with a mistake names it, as any body does.
    const typo = await call('POST', '/v1/public/bookings', {
      headers: { 'x-publishable-key': key, 'idempotency-key': `typo-${++sequence}`, 'x-hold-token': other.hold_token },
      body: { hold_id: other.hold_id, client: onlineBooking(scene).client, note: 'typo' },
    });
    expect(typo.body.error.details).toEqual([{ path: 'note', message: 'unknown field' }]);

    clockAhead(601);
    expect(codeOf(await heldBooking(scene, key, other.hold_id, other.hold_token))).toBe('HOLD_EXPIRED');
  });

  it("a service that asks a deposit: the hold quotes it, a held booking without it is 422 DEPOSIT_REQUIRED, with it the payment commits with the booking and the client's spend (new or known)", async () => {
    const { scene, key } = await publicScene();
    const filler = await makeService(scene.practice, {
      name: 'Filler',
      provider_ids: [scene.provider.id],
      duration_minutes: 60,
      price_cents: 80_000,
      deposit: { type: 'percent', value: 25 },
    });
    const holdAndBook = async (at: string, client: Record<string, unknown>, withoutDepositFirst = false) => {
      const view = (await publicHold(key, { service_id: filler.id, scheduled_at: at })).body.data;
      expect(view.deposit_required_cents).toBe(20_000);
      const bookWith = (deposit?: Record<string, unknown>) =>
        call('POST', '/v1/public/bookings', {
          headers: {
            'x-publishable-key': key,
            'idempotency-key': `dep-${++sequence}`,
            'x-hold-token': view.hold_token,
          },
          body: { hold_id: view.hold_id, client, ...(deposit ? { deposit } : {}) },
        });
      if (withoutDepositFirst) expect(codeOf(await bookWith())).toBe('DEPOSIT_REQUIRED');
      const booked = await bookWith({ amount_cents: 20_000, reference: `pi_${view.hold_id.slice(0, 8)}` });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      const appointment = (await call('GET', `/v1/appointments/${booked.body.data.appointment_id}`, staff(scene))).body
        .data;
      expect(appointment).toMatchObject({
        hold_id: view.hold_id,
        deposit_required_cents: 20_000,
        deposit_paid_cents: 20_000,
      });
      const payments = (await call('GET', `/v1/payments?client_id=${appointment.client_id}`, staff(scene))).body.data;
      expect(payments).toEqual([
        expect.objectContaining({
          kind: 'deposit',
          method: 'card',
          appointment_id: appointment.id,
          amount_cents: 20_000,
        }),
      ]);
      return (await call('GET', `/v1/clients/${appointment.client_id}`, staff(scene))).body.data;
    };
    // A new email: the client's Put carries the spend. A known one: the spend is raised on it.
    const created = await holdAndBook(TEN, { ...onlineBooking(scene).client }, true);
    expect(created.total_spent_cents).toBe(20_000);
    const { first_name, last_name, email } = scene.client as { first_name: string; last_name: string; email: string };
    const known = await holdAndBook(nyTime(BOOKING_DAY, '13:00'), { first_name, last_name, email });
    expect(known).toMatchObject({ id: scene.client.id, total_spent_cents: 20_000 });
  });

  it('staff may release or confirm a public hold (its address gets its place back), and hold equipment in an hour already claimed', async () => {
    const { scene, key } = await publicScene();
    const first = (await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN }, '203.0.113.9')).body.data;
    const released = await call('DELETE', `/v1/holds/${first.hold_id}`, staff(scene));
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    const second = (await publicHold(key, { service_id: scene.service.id, scheduled_at: TEN }, '203.0.113.9')).body
      .data;
    const confirmed = await confirm(scene, second.hold_id, { source: 'online' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(confirmed.body.data).toMatchObject({ hold_id: second.hold_id, source: 'online' });
    // Two half-hour holds in one UTC hour: the second writes the bucket the first made.
    const equipmentHold = await hold(scene, {
      equipment_id: scene.equipment.id,
      scheduled_at: nyTime(BOOKING_DAY, '11:00'),
      duration_minutes: 30,
    });
    expect(equipmentHold.status, JSON.stringify(equipmentHold.body)).toBe(201);
    const sameHour = await hold(scene, { scheduled_at: nyTime(BOOKING_DAY, '11:30'), duration_minutes: 30 });
    expect(sameHour.status, JSON.stringify(sameHour.body)).toBe(201);
  });
});
