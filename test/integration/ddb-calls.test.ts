import { describe, expect, it } from 'vitest';
import { ddb, ddbCalls } from '../../lib/db/client';
import { resetConfig } from '../../lib/config';
import { listAppointments, providerAvailability, providerSlots } from '../../lib/use-cases/appointment-queries';
import { searchAvailability } from '../../lib/use-cases/availability-search';
import { changeStatus } from '../../lib/use-cases/appointment-status';
import { changePractice } from '../../lib/use-cases/practice';
import { createAppointment, updateAppointment } from '../../lib/use-cases/booking';
import { call } from '../fixtures/api';
import { addDays, daysFromToday, localAt } from '../fixtures/dates';
import { book, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';
import { consistencyOf, counted } from '../fixtures/ddb-calls';

/** The day `book` uses by default, some weeks ahead. */
const DAY = BOOKING_DAY;

describe('DynamoDB calls per operation (no Scan anywhere)', () => {
  it('create: one batched read and one strong Query per resource of its claims, together; then one transaction', async () => {
    const scene = await makeScene();
    ddbCalls.trace = [];
    const create = () =>
      createAppointment(
        scene.practice.medspaId,
        {
          client_id: scene.client.id,
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          room_id: scene.room.id,
          equipment_id: scene.equipment.id,
          scheduled_at: nyTime(DAY, '10:00'),
          source: 'manual',
        },
        new Date(),
      );
    const { calls } = await counted(create);
    const trace = ddbCalls.trace;
    ddbCalls.trace = undefined;
    // The provider's, room's and equipment's claim buckets: one Query each over the hours (every
    // hour's key was a read unit, existing or not), sent with the batched read in one round trip.
    expect(calls).toEqual({ BatchGetItemCommand: 1, QueryCommand: 3, TransactWriteItemsCommand: 1 });
    expect(trace!.slice(0, 4).map((entry) => entry.split(' ')[1])).toEqual(['sent', 'sent', 'sent', 'sent']);
    const later = await consistencyOf(() =>
      createAppointment(
        scene.practice.medspaId,
        {
          client_id: scene.client.id,
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          scheduled_at: nyTime(DAY, '13:00'),
          source: 'manual',
        },
        new Date(),
      ),
    );
    // Strongly: the transaction is conditioned on the versions these reads found (docs/decisions/0001).
    expect(later.filter((call) => !call.startsWith('TransactWrite')).sort()).toEqual([
      'BatchGetItemCommand strong',
      'QueryCommand strong',
    ]);
  });

  it('status change and cancel: one read and one transaction; a move: read, batched read and its claims Query, transaction', async () => {
    const scene = await makeScene();
    const a = (await book(scene)).body.data;
    const medspaId = scene.practice.medspaId;
    expect((await counted(() => changeStatus(medspaId, a.id, 'confirmed', { now: new Date() }))).calls).toEqual({
      GetItemCommand: 1,
      TransactWriteItemsCommand: 1,
    });
    expect((await counted(() => updateAppointment(medspaId, a.id, { notes: 'x' }, { now: new Date() }))).calls).toEqual(
      { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    );
    expect(
      (
        await counted(() =>
          updateAppointment(medspaId, a.id, { scheduled_at: nyTime(DAY, '12:00') }, { now: new Date() }),
        )
      ).calls,
    ).toEqual({
      GetItemCommand: 1,
      BatchGetItemCommand: 1,
      QueryCommand: 1,
      TransactWriteItemsCommand: 1,
    });
    expect((await counted(() => changeStatus(medspaId, a.id, 'cancelled', { now: new Date() }))).calls).toEqual({
      GetItemCommand: 1,
      TransactWriteItemsCommand: 1,
    });
  });

  it('slots and availability for one provider-day: one eventually consistent batched read, and one eventually consistent Query per resource, in parallel', async () => {
    const scene = await makeScene();
    await book(scene);
    const medspaId = scene.practice.medspaId;
    const slots = await counted(() =>
      providerSlots(
        medspaId,
        { providerId: scene.provider.id },
        { date: DAY, durationMinutes: 60, intervalMinutes: 15 },
        new Date(),
      ),
    );
    // The practice and provider; the provider's claim buckets over the widest local day.
    expect(slots.calls).toEqual({ BatchGetItemCommand: 1, QueryCommand: 1 });
    expect(slots.result.length).toBeGreaterThan(0);
    const availability = await counted(() =>
      providerAvailability(
        medspaId,
        { providerId: scene.provider.id, roomId: scene.room.id },
        { start: nyTime(DAY, '12:00'), end: nyTime(DAY, '13:00') },
      ),
    );
    expect(availability.calls).toEqual({ BatchGetItemCommand: 1, QueryCommand: 2 });
    // With a room and equipment too: one Query more each (a read of every hour's key needed two batches of 100).
    const withAll = await counted(() =>
      providerSlots(
        medspaId,
        { providerId: scene.provider.id, roomId: scene.room.id, equipmentId: scene.equipment.id },
        { date: DAY, durationMinutes: 60, intervalMinutes: 15 },
        new Date(),
      ),
    );
    expect(withAll.calls).toEqual({ BatchGetItemCommand: 1, QueryCommand: 3 });
    const consistency = await consistencyOf(() =>
      providerSlots(
        medspaId,
        { providerId: scene.provider.id, roomId: scene.room.id },
        { date: DAY, durationMinutes: 60, intervalMinutes: 15 },
        new Date(),
      ),
    );
    expect(consistency.sort()).toEqual([
      'BatchGetItemCommand eventual',
      'QueryCommand eventual',
      'QueryCommand eventual',
    ]);
  });

  it('availability search, 3 providers x 14 days: the setup reads and one Query per resource, the same with 0 and 50 appointments', async () => {
    const scene = await makeScene({ providers: 3 });
    const medspaId = scene.practice.medspaId;
    const from = daysFromToday(1, 'America/New_York');
    const to = addDays(from, 13);
    const base = { serviceId: scene.service.id, from, to, intervalMinutes: 15 };
    const providerIds = scene.providers.map((p) => p.id);
    const variants = {
      // Round 1: practice + service (a BatchGetItem); round 2: the certified providers (one more); round 3: one
      // Query per provider over its hours (3), where a read of every hour's key took 336 keys in 4 BatchGetItems.
      service: base,
      // The providers come with round 1: 1 + 3 Queries.
      named: { ...base, providerIds },
      // The room's buckets over the providers' hours: one Query more.
      room: { ...base, roomId: scene.room.id },
      // Room and equipment: two Queries more.
      both: { ...base, roomId: scene.room.id, equipmentId: scene.equipment.id },
    };
    const expected = {
      service: { BatchGetItemCommand: 2, QueryCommand: 3 },
      named: { BatchGetItemCommand: 1, QueryCommand: 3 },
      room: { BatchGetItemCommand: 2, QueryCommand: 4 },
      both: { BatchGetItemCommand: 2, QueryCommand: 5 },
    };
    const measure = async () => {
      const out: Record<string, { calls: Record<string, number>; slots: number }> = {};
      for (const [name, input] of Object.entries(variants)) {
        const { result, calls } = await counted(() => searchAvailability(medspaId, input, new Date()));
        out[name] = { calls, slots: result.flatMap((entry) => entry.slots).length };
      }
      return out;
    };
    const empty = await measure();
    for (const [name, calls] of Object.entries(expected)) expect(empty[name]!.calls, name).toEqual(calls);
    // Every read of a search is eventually consistent (half the units): the booking's own reads are strong.
    expect(new Set(await consistencyOf(() => searchAvailability(medspaId, variants.both, new Date())))).toEqual(
      new Set(['BatchGetItemCommand eventual', 'QueryCommand eventual']),
    );
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        // (i mod 14, i mod 8) differs for every i < 56: no two bookings share a day and hour.
        const day = addDays(from, i % 14);
        const created = await createAppointment(
          medspaId,
          {
            client_id: scene.client.id,
            service_id: scene.service.id,
            provider_id: providerIds[i % 3]!,
            room_id: i % 2 ? scene.room.id : null,
            equipment_id: i % 5 ? null : scene.equipment.id,
            scheduled_at: localAt(day, `${String(9 + (i % 8)).padStart(2, '0')}:00`, 'America/New_York'),
            source: 'manual',
          },
          new Date(),
        );
        expect(created.status).toBe('scheduled');
      }),
    );
    const booked = await measure();
    for (const name of Object.keys(expected)) {
      // Flat: the same calls whatever is booked, and the bookings do show.
      expect(booked[name]!.calls, name).toEqual(empty[name]!.calls);
      expect(booked[name]!.slots, name).toBeLessThan(empty[name]!.slots);
    }
  }, 90_000);

  it('a page of the list: one Query, one batched read for nested names and zone not read lately; a COUNT Query only when the page is not the whole range', async () => {
    const scene = await makeScene();
    for (const hhmm of ['09:00', '10:00', '11:00']) await book(scene, { scheduled_at: nyTime(DAY, hhmm) });
    const page = await counted(() =>
      listAppointments(scene.practice.medspaId, { from: DAY, to: DAY, limit: 50 }, new Date()),
    );
    expect(page.result.total).toBe(3);
    // GetCommand: the practice's time zone. The page is the whole range: its items are the total.
    expect(page.calls).toEqual({ GetItemCommand: 1, QueryCommand: 1, BatchGetItemCommand: 1 });
    // Again: the zone and the names this container read a moment ago are reused (lib/use-cases/list-names.ts), so one Query.
    const again = await counted(() =>
      listAppointments(scene.practice.medspaId, { from: DAY, to: DAY, limit: 50 }, new Date()),
    );
    expect(again.result).toEqual(page.result);
    expect(again.calls).toEqual({ QueryCommand: 1 });
    // A first page with more after it counts, once its read says so; a later page counts beside its read.
    ddbCalls.trace = [];
    const first = await counted(() =>
      listAppointments(scene.practice.medspaId, { from: DAY, to: DAY, limit: 2 }, new Date()),
    );
    const firstTrace = ddbCalls.trace.filter((entry) => entry.startsWith('QueryCommand'));
    expect(first.result).toMatchObject({ total: 3, items: { length: 2 } });
    expect(first.calls).toMatchObject({ QueryCommand: 2 });
    expect(firstTrace).toEqual([
      'QueryCommand sent',
      'QueryCommand answered',
      'QueryCommand sent',
      'QueryCommand answered',
    ]);
    ddbCalls.trace = [];
    const second = await counted(() =>
      listAppointments(
        scene.practice.medspaId,
        { from: DAY, to: DAY, limit: 2, cursor: first.result.nextCursor! },
        new Date(),
      ),
    );
    const secondTrace = ddbCalls.trace.filter((entry) => entry.startsWith('QueryCommand'));
    ddbCalls.trace = undefined;
    expect(second.result).toMatchObject({ total: 3, items: { length: 1 }, nextCursor: null });
    expect(second.calls).toMatchObject({ QueryCommand: 2 });
    expect(secondTrace.slice(0, 2)).toEqual(['QueryCommand sent', 'QueryCommand sent']);
  });

  it('a change of the time zone reaches the list within LIST_NAMES_TTL_MS (0: at once), like the names', async () => {
    // Noon in New York is 01:00 or 02:00 the next day in Tokyo (UTC+9, no DST).
    const bookedAtNoon = async () => {
      const scene = await makeScene();
      expect((await book(scene, { scheduled_at: nyTime(DAY, '12:00') })).status).toBe(201);
      const dayOf = (date: string) =>
        listAppointments(scene.practice.medspaId, { from: date, to: date, limit: 50 }, new Date());
      expect((await dayOf(DAY)).total).toBe(1);
      await changePractice(scene.practice.medspaId, { time_zone: 'Asia/Tokyo' }, { now: new Date() });
      return dayOf;
    };
    // The zone read a moment ago: still New York's day, with no read of the practice.
    const cachedDay = await bookedAtNoon();
    const cached = await counted(() => cachedDay(DAY));
    expect(cached.result.total).toBe(1);
    expect(cached.calls).toEqual({ QueryCommand: 1 });
    process.env.LIST_NAMES_TTL_MS = '0';
    resetConfig();
    try {
      const freshDay = await bookedAtNoon();
      const after = await counted(() => freshDay(DAY));
      expect(after.result.total).toBe(0);
      // The practice read for its zone, then the page (the whole range: no count); no names on an empty page.
      expect(after.calls).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
      expect((await freshDay(addDays(DAY, 1))).total).toBe(1);
    } finally {
      delete process.env.LIST_NAMES_TTL_MS;
      resetConfig();
    }
  });
});

describe('the DynamoDB client', () => {
  it('has no SDK logger middleware (it copied every payload for a logger that drops it) and counts every call', () => {
    const names = ddb().middlewareStack.identify().join(' ');
    expect(names).not.toMatch(/loggerMiddleware/);
    expect(names).toMatch(/countDynamoCalls/);
  });
});

describe('a whole create request through the HTTP layer', () => {
  it('commits the audit entry inside the booking transaction: no extra round trip, exactly one entry', async () => {
    const scene = await makeScene();
    await book(scene, { scheduled_at: nyTime(DAY, '09:00') }); // warms the access cache
    const { result, calls } = await counted(() => book(scene, { scheduled_at: nyTime(DAY, '11:00') }));
    expect(result.status).toBe(201);
    // The rate-limit bucket's one write overlaps the access check (lib/http/auth.ts); the provider's
    // claims Query goes with the batched read.
    expect(calls).toEqual({
      BatchGetItemCommand: 1,
      QueryCommand: 1,
      TransactWriteItemsCommand: 1,
      UpdateItemCommand: 1,
    });
    const log = await call('GET', '/v1/audit-log', { token: scene.practice.adminToken });
    const entries = log.body.data.filter((entry: { resource_id: string }) => entry.resource_id === result.body.data.id);
    expect(entries).toEqual([
      expect.objectContaining({
        operation: 'createAppointment',
        outcome: 'success',
        status: 201,
        request_id: result.headers['x-request-id'],
      }),
    ]);
  });

  it('a refused create still records its outcome', async () => {
    const scene = await makeScene();
    await book(scene);
    const refused = await book(scene);
    expect(refused.status).toBe(409);
    const log = await call('GET', '/v1/audit-log', { token: scene.practice.adminToken });
    expect(
      log.body.data.find((entry: { request_id: string }) => entry.request_id === refused.headers['x-request-id']),
    ).toMatchObject({
      operation: 'createAppointment',
      outcome: 'PROVIDER_UNAVAILABLE',
      status: 409,
    });
  });
});

describe('a public call through the HTTP layer', () => {
  it("the key and its practice: one batched read (then cached); the visitor's bucket on the key and the key's overall bucket: one write each; a made-up key: its read and one write (its address's bucket)", async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const key = (
      await call('POST', '/v1/publishable-keys', {
        token,
        body: { name: 'Site', allowed_origins: ['https://spa.example'] },
      })
    ).body.data.key;
    await call('PATCH', '/v1/practice', { token, body: { online_booking: { enabled: true } } });
    const ask = () => call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key } });
    const cold = await counted(ask);
    expect(cold.result.status).toBe(200);
    expect(cold.calls).toEqual({ BatchGetItemCommand: 1, UpdateItemCommand: 2 });
    expect((await counted(ask)).calls).toEqual({ UpdateItemCommand: 2 });
    const madeUp = `pk_${scene.practice.medspaId.replace(/-/g, '')}${'0'.repeat(32)}`;
    const unknown = await counted(() =>
      call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': madeUp } }),
    );
    expect(unknown.result.status).toBe(401);
    expect(unknown.calls).toEqual({ BatchGetItemCommand: 1, UpdateItemCommand: 1 });
  });
});
