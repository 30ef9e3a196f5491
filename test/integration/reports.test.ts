import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../lib/auth/roles';
import { appointmentCodec, paymentCodec, stockAdjustmentCodec } from '../../lib/db/codecs';
import { appointmentKey } from '../../lib/db/keys';
import type { AppointmentRecord } from '../../lib/domain/records';
import { readReportContext } from '../../lib/db/report-aggregates';
import { queryReportDays } from '../../lib/db/report-days';
import { changeStatus, deleteAppointment } from '../../lib/use-cases/appointment-status';
import { createAppointment, updateAppointment } from '../../lib/use-cases/booking';
import { changePlanStatus, sellPlan } from '../../lib/use-cases/client-plans';
import { createPayment } from '../../lib/use-cases/payments';
import { changePlan } from '../../lib/use-cases/plans';
import { changePractice } from '../../lib/use-cases/practice';
import { createStockAdjustment } from '../../lib/use-cases/products';
import { rebuildAggregates } from '../../lib/use-cases/report-rebuild';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeProduct, makeProvider, makeService } from '../fixtures/builders';
import { addDays, lastOfMonth, nextDstChange, NY, todayIn, utc } from '../fixtures/dates';
import { makePlan } from '../fixtures/plans';
import { appointmentRecord, batchWrite, paymentRecord, putsOf, saleRecord } from '../fixtures/report-seed';
import { tableStream } from '../fixtures/report-stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

/**
 * Reports against a brute-force computation over the raw data (read back through the public
 * API), on a practice with more than a hundred appointments in every status around the next DST change
 * and a month end, some rescheduled, some repriced after completion, some deleted; with payments,
 * retail sales and plans sold. The counters are driven by this table's real stream
 * (test/fixtures/stream.ts).
 *
 * The volume is written below the use cases (test/fixtures/report-seed.ts): each seeded
 * appointment's versions (booked, moved, repriced, its final status, repriced after completion)
 * go to the table one round per version in BatchWrites, and some are deleted, so the stream
 * carries the INSERT / MODIFY / REMOVE images a booking's life does. A smaller set lives the same
 * stories through the use cases (every kind of change at least once), among their claims, audit
 * entries and client stats, which the aggregator must pass over.
 */

// ---- A deterministic pseudo-random sequence ------------------------------------------------------
let seed = 20_260_523;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

// ---- The window: around the next DST change, always in the future --------------------------------
const spring = nextDstChange('spring');
const autumn = nextDstChange('autumn');
const DST = spring < autumn ? spring : autumn;
const FIRST = [addDays(todayIn(NY), 2), addDays(DST, -24)].sort()[1];
const LAST = addDays(DST, 24);
const DAYS: string[] = [];
for (let d = FIRST; d <= LAST; d = addDays(d, 1)) DAYS.push(d);
const MONTH_END = lastOfMonth(FIRST) < addDays(LAST, -3) ? lastOfMonth(FIRST) : lastOfMonth(addDays(FIRST, -10));

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const every = (periods: { start: string; end: string }[], days: readonly string[] = WEEK) =>
  Object.fromEntries(days.map((d) => [d, periods]));

/** Bookable local slots per provider kind: at least the longest service apart, inside the working periods, away from DST gaps. */
const SLOTS = {
  allDay: ['00:30', '06:00', '20:00', '22:15'],
  weekday: ['10:00', '14:00'],
  split: ['08:30', '13:30', '18:15'],
} as const;
/** Reserved for moves: never booked first. */
const MOVE_SLOT = '04:00';

type Kind = keyof typeof SLOTS;
interface Scene {
  practice: TestPractice;
  providers: Record<Kind, { id: string }>;
  services: { id: string; duration_minutes: number; price_cents: number }[];
  clients: { id: string }[];
  products: { id: string }[];
  plans: { id: string; price_cents: number }[];
  caller: { medspaId: string; clientId: string; role: Role };
}
let scene: Scene;
const stream = tableStream();
const used = new Set<string>();
/** What the data went through, seeded and through the use cases (asserted, so the scenario cannot silently thin out). */
const newTally = () => ({ moved: 0, repricedBefore: 0, repricedAfterCompletion: 0, deleted: 0, deletedCompleted: 0 });
const happened = newTally();
const lived = newTally();
/** Plans sold, with their price at the sale: the API shows no client plan's price, so this is the truth of plans_cents. */
const sold: { created_at: string; price_cents: number }[] = [];

const weekdayOf = (date: string) => WEEK[DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1];
/** The weekday provider is off from 13:00 two days before the change to 12:00 the day before. */
const TIME_OFF = { start: utc(addDays(DST, -2), '13:00'), end: utc(addDays(DST, -1), '12:00') };
const slotFree = (kind: Kind, date: string, time: string) => {
  if (kind === 'weekday' && ['sat', 'sun'].includes(weekdayOf(date))) return false;
  const start = Date.parse(utc(date, time));
  if (kind === 'weekday' && start < Date.parse(TIME_OFF.end) && Date.parse(TIME_OFF.start) < start + 90 * 60_000)
    return false;
  return !used.has(`${kind}|${date}|${time}`);
};

async function book(kind: Kind, date: string, time: string, extra: Record<string, unknown> = {}) {
  used.add(`${kind}|${date}|${time}`);
  const service = pick(scene.services);
  return createAppointment(
    scene.practice.medspaId,
    {
      client_id: pick(scene.clients).id,
      service_id: service.id,
      provider_id: scene.providers[kind].id,
      scheduled_at: utc(date, time),
      source: 'manual',
      ...(random() < 0.2 ? { price_cents: 1000 + Math.floor(random() * 900) * 100 } : {}),
      ...extra,
    },
    new Date(),
  );
}

const PATHS: Record<string, string[]> = {
  completed: ['confirmed', 'checked_in', 'in_progress', 'completed'],
  cancelled_early: ['cancelled'],
  cancelled_confirmed: ['confirmed', 'cancelled'],
  cancelled_late: ['confirmed', 'checked_in', 'in_progress', 'cancelled'],
  no_show: ['confirmed', 'checked_in', 'no_show'],
  confirmed: ['confirmed'],
  checked_in: ['confirmed', 'checked_in'],
  in_progress: ['confirmed', 'checked_in', 'in_progress'],
  scheduled: [],
};
const chooseFate = () => {
  const r = random();
  if (r < 0.42) return 'completed';
  if (r < 0.47) return 'cancelled_early';
  if (r < 0.51) return 'cancelled_confirmed';
  if (r < 0.54) return 'cancelled_late';
  if (r < 0.62) return 'no_show';
  if (r < 0.7) return 'confirmed';
  if (r < 0.75) return 'checked_in';
  if (r < 0.8) return 'in_progress';
  return 'scheduled';
};

/** What happens to one appointment after booking: maybe a move or reprice, its status path, maybe a reprice after completion, maybe a deletion. */
interface Story {
  move: { date: string; duration: number } | null;
  repriceBefore: number | null;
  fate: keyof typeof PATHS;
  repriceAfter: number | null;
  remove: boolean;
}

/** A random story: every draw at once (callers draw before their first await, so the sequence stays the same each run). */
function drawStory(): Story {
  const move = random() < 0.15 ? { date: pick(DAYS), duration: pick([30, 45, 60, 90]) } : null;
  const repriceBefore = random() < 0.1 ? 5000 + Math.floor(random() * 100) * 100 : null;
  const fate = chooseFate();
  const repriceAfter = fate === 'completed' && random() < 0.3 ? 2000 + Math.floor(random() * 500) * 100 : null;
  return { move, repriceBefore, fate, repriceAfter, remove: random() < 0.05 };
}

const FATES = Object.keys(PATHS) as (keyof typeof PATHS)[];

/** The i-th of the stories lived through the use cases: every fate, and each kind of change on several of them. */
const storyNumber = (i: number): Story => {
  const fate = FATES[i % FATES.length];
  return {
    move: i % 4 === 1 ? { date: DAYS[i % DAYS.length], duration: [30, 45, 60, 90][(i >> 2) % 4] } : null,
    repriceBefore: i % 5 === 2 ? 5000 + i * 100 : null,
    fate,
    repriceAfter: fate === 'completed' && i % 2 === 0 ? 2000 + i * 100 : null,
    remove: i % 6 === 3,
  };
};

/** Lives `story` through the use cases. */
async function liveThrough(id: string, story: Story = drawStory()) {
  const mid = scene.practice.medspaId;
  const now = () => new Date();
  const { move, repriceBefore, fate, repriceAfter, remove } = story;
  const moveTo = move && slotFree('allDay', move.date, MOVE_SLOT) ? move : null;
  if (moveTo) used.add(`allDay|${moveTo.date}|${MOVE_SLOT}`);

  if (moveTo) {
    await updateAppointment(
      mid,
      id,
      {
        scheduled_at: utc(moveTo.date, MOVE_SLOT),
        provider_id: scene.providers.allDay.id,
        duration_minutes: moveTo.duration,
      },
      { now: now() },
    );
    lived.moved += 1;
  }
  if (repriceBefore !== null) {
    await updateAppointment(mid, id, { price_cents: repriceBefore }, { now: now() });
    lived.repricedBefore += 1;
  }
  for (const status of PATHS[fate])
    await changeStatus(mid, id, status as never, { now: now(), reason: status === 'cancelled' ? 'test' : undefined });
  if (repriceAfter !== null) {
    await updateAppointment(mid, id, { price_cents: repriceAfter }, { now: now() });
    lived.repricedAfterCompletion += 1;
  }
  if (remove) {
    await deleteAppointment(mid, id, {});
    lived.deleted += 1;
    if (fate === 'completed') lived.deletedCompleted += 1;
  }
}

/** Local times of seeded instants: near both midnights too, none in a DST gap. */
const SEED_TIMES = ['00:10', '00:45', '07:45', '12:00', '15:30', '19:30', '23:50'];

/**
 * `count` appointments living random stories below the use cases: each version of each one is
 * written as a use case would leave the item (status, price, time, version + 1), one round per
 * version, then the deletions.
 */
async function seedAppointments(count: number) {
  const mid = scene.practice.medspaId;
  const at = new Date().toISOString();
  const lives = Array.from({ length: count }, () => {
    const service = pick(scene.services);
    const story = drawStory();
    const first = appointmentRecord({
      medspaId: mid,
      clientId: pick(scene.clients).id,
      serviceId: service.id,
      providerId: scene.providers[pick(Object.keys(SLOTS) as Kind[])].id,
      scheduledAt: utc(pick(DAYS), pick(SEED_TIMES)),
      durationMinutes: service.duration_minutes,
      priceCents: random() < 0.2 ? 1000 + Math.floor(random() * 900) * 100 : service.price_cents,
      at,
    });
    const versions: AppointmentRecord[] = [first];
    /** The next version the stream sees, `steps` versions on (versions it never saw changed nothing it counts). */
    const next = (changes: Partial<AppointmentRecord>, steps = 1) => {
      const last = versions[versions.length - 1];
      versions.push({ ...last, ...changes, version: last.version + steps });
    };
    if (story.move) {
      const scheduled = utc(story.move.date, pick(SEED_TIMES));
      const end = new Date(Date.parse(scheduled) + story.move.duration * 60_000).toISOString();
      next({ scheduled_at: scheduled, end_at: end, duration_minutes: story.move.duration });
      happened.moved += 1;
    }
    if (story.repriceBefore !== null) {
      next({ price_cents: story.repriceBefore });
      happened.repricedBefore += 1;
    }
    // Straight to the fate's status (the stories lived through the use cases take every step).
    const path = PATHS[story.fate];
    const status = path[path.length - 1] as AppointmentRecord['status'] | undefined;
    if (status) next({ status, ...(status === 'cancelled' ? { cancelled_at: at } : {}) }, path.length);
    if (story.repriceAfter !== null) {
      next({ price_cents: story.repriceAfter });
      happened.repricedAfterCompletion += 1;
    }
    if (story.remove) {
      happened.deleted += 1;
      if (story.fate === 'completed') happened.deletedCompleted += 1;
    }
    return { versions, remove: story.remove };
  });
  const rounds = Math.max(...lives.map((life) => life.versions.length));
  for (let round = 0; round < rounds; round += 1)
    await batchWrite(
      putsOf(lives.flatMap(({ versions }) => (versions[round] ? [appointmentCodec.toItem(versions[round])] : []))),
    );
  // Sure things, whatever the draws: a completed visit on the DST change day, and a client whose
  // only visit is in the second half (a new client there).
  const newcomer = await makeClient(scene.practice);
  const sure = [
    { client: scene.clients[0].id, date: DST },
    { client: newcomer.id, date: RANGES['the second half (returning clients)'].from },
  ].map(({ client, date }) =>
    appointmentRecord({
      medspaId: mid,
      clientId: client,
      serviceId: scene.services[1].id,
      providerId: scene.providers.allDay.id,
      scheduledAt: utc(date, '12:00'),
      durationMinutes: 60,
      priceCents: 25_000,
      status: 'completed',
      at,
    }),
  );
  await batchWrite(putsOf(sure.map((record) => appointmentCodec.toItem(record))));
  await batchWrite(
    lives
      .filter((life) => life.remove)
      .map(({ versions }) => ({ DeleteRequest: { Key: appointmentKey(mid, versions[0].id) } })),
  );
}

/** `run` over the items, `size` at a time; the results in the items' order. */
async function inChunks<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

/** A random instant of a window day, at times that sit near local midnight too. */
const someInstant = () => new Date(utc(pick(DAYS), pick(['00:10', '07:45', '12:00', '19:30', '23:50'])));

/** Payments and retail sales through their use cases (sales: some of them damaged stock, which is no revenue). */
async function addMoney(payments: number, sales: number) {
  const mid = scene.practice.medspaId;
  await inChunks(Array.from({ length: payments }), 8, () =>
    createPayment(
      mid,
      { client_id: pick(scene.clients).id, amount_cents: 500 + Math.floor(random() * 4000) * 10, method: 'card' },
      someInstant(),
    ),
  );
  await inChunks(Array.from({ length: sales }), 4, async () => {
    const product = pick(scene.products);
    const input =
      random() < 0.25
        ? { delta: -1, reason: 'damaged' as const }
        : {
            delta: -(1 + Math.floor(random() * 3)),
            reason: 'sale' as const,
            ...(random() < 0.3 ? { unit_price_cents: 3900 } : {}),
          };
    await createStockAdjustment(scene.caller, product.id, input, someInstant());
  });
}

/** Payments and retail sales written below the use cases (test/fixtures/report-seed.ts). */
async function seedMoney(payments: number, sales: number) {
  const mid = scene.practice.medspaId;
  await batchWrite(
    putsOf([
      ...Array.from({ length: payments }, () =>
        paymentCodec.toItem(
          paymentRecord(
            mid,
            pick(scene.clients).id,
            500 + Math.floor(random() * 4000) * 10,
            someInstant().toISOString(),
          ),
        ),
      ),
      ...Array.from({ length: sales }, () =>
        stockAdjustmentCodec.toItem(
          saleRecord(
            mid,
            pick(scene.products).id,
            1 + Math.floor(random() * 3),
            pick([4800, 2500, 3900]),
            someInstant().toISOString(),
          ),
        ),
      ),
    ]),
  );
}

/** Sells a plan at `at` (with its payment when `paid`), remembering its price at the sale. */
async function sell(plan: { id: string; price_cents: number }, clientId: string, at: Date, paid: boolean) {
  const input = {
    plan_id: plan.id,
    ...(paid ? { payment: { amount_cents: plan.price_cents, method: 'card' as const } } : {}),
  };
  const clientPlan = await sellPlan(scene.practice.medspaId, clientId, input, at);
  sold.push({ created_at: clientPlan.created_at, price_cents: plan.price_cents });
  return clientPlan;
}

// ---- The truth, from the public API ------------------------------------------------------------------

interface Truth {
  zone: string;
  appointments: {
    id: string;
    client_id: string;
    provider_id: string;
    service_id: string;
    scheduled_at: string;
    duration_minutes: number;
    status: string;
    price_cents: number;
  }[];
  payments: { amount_cents: number; created_at: string; kind: string }[];
  sales: { delta: number; unit_price_cents: number; created_at: string }[];
  plans: { price_cents: number; created_at: string }[];
  providers: {
    id: string;
    full_name: string;
    working_hours: Record<string, { start: string; end: string }[]>;
    time_off: { start: string; end: string }[];
  }[];
  services: { id: string; name: string }[];
}

async function pages(path: string, token: string) {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response: { status: number; body: any } = await call(
      'GET',
      `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    items.push(...response.body.data);
    cursor = response.body.pagination.next_cursor;
  } while (cursor);
  return items;
}

async function loadTruth(from = addDays(FIRST, -1), to = addDays(LAST, 1)): Promise<Truth> {
  const token = scene.practice.adminToken;
  const zone = (await call('GET', '/v1/practice', { token })).body.data.time_zone;
  const listed = await pages(`/v1/appointments?from=${from}&to=${to}`, token);
  const appointments = [];
  for (const chunk of Array.from({ length: Math.ceil(listed.length / 25) }, (_, i) =>
    listed.slice(i * 25, i * 25 + 25),
  )) {
    appointments.push(
      ...(await Promise.all(
        chunk.map(async (item) => {
          const detail =
            item.status === 'completed'
              ? (await call('GET', `/v1/appointments/${item.id}`, { token })).body.data
              : null;
          return {
            id: item.id,
            client_id: item.client.id,
            provider_id: item.provider.id,
            service_id: item.service.id,
            scheduled_at: item.scheduled_at,
            duration_minutes: item.duration_minutes,
            status: item.status,
            price_cents: detail?.price_cents ?? 0,
          };
        }),
      )),
    );
  }
  const payments = await pages(`/v1/payments?from=${from}&to=${to}`, token);
  const sales = (await Promise.all(scene.products.map((p) => pages(`/v1/products/${p.id}/stock-adjustments`, token))))
    .flat()
    .filter((e) => e.reason === 'sale');
  return {
    zone,
    appointments,
    payments,
    sales,
    plans: [...sold],
    providers: await pages('/v1/providers', token),
    services: await pages('/v1/services', token),
  };
}

// ---- Brute force -------------------------------------------------------------------------------------

const localDate = (iso: string, zone: string) => DateTime.fromISO(iso).setZone(zone).toISODate()!;
const within = (date: string, range: Range) => range.from <= date && date <= range.to;
type Range = { from: string; to: string };
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function expectedRevenue(truth: Truth, range: Range, group: 'day' | 'week' | 'month') {
  const periodOf = (date: string) =>
    group === 'day'
      ? date
      : group === 'month'
        ? date.slice(0, 7)
        : DateTime.fromISO(date, { zone: 'UTC' }).toFormat("kkkk-'W'WW");
  const series = new Map<
    string,
    {
      period: string;
      service_cents: number;
      retail_cents: number;
      plans_cents: number;
      collected_cents: number;
      appointments_completed: number;
    }
  >();
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
    const period = periodOf(d);
    if (!series.has(period))
      series.set(period, {
        period,
        service_cents: 0,
        retail_cents: 0,
        plans_cents: 0,
        collected_cents: 0,
        appointments_completed: 0,
      });
  }
  for (const a of truth.appointments) {
    const date = localDate(a.scheduled_at, truth.zone);
    if (a.status !== 'completed' || !within(date, range)) continue;
    series.get(periodOf(date))!.service_cents += a.price_cents;
    series.get(periodOf(date))!.appointments_completed += 1;
  }
  for (const p of truth.payments) {
    const date = localDate(p.created_at, truth.zone);
    if (within(date, range)) series.get(periodOf(date))!.collected_cents += p.amount_cents;
  }
  for (const s of truth.sales) {
    const date = localDate(s.created_at, truth.zone);
    if (within(date, range)) series.get(periodOf(date))!.retail_cents += -s.delta * s.unit_price_cents;
  }
  for (const p of truth.plans) {
    const date = localDate(p.created_at, truth.zone);
    if (within(date, range)) series.get(periodOf(date))!.plans_cents += p.price_cents;
  }
  const list = [...series.values()];
  const sum = (key: 'service_cents' | 'retail_cents' | 'plans_cents' | 'collected_cents') =>
    list.reduce((t, e) => t + e[key], 0);
  return {
    total_cents: sum('service_cents') + sum('retail_cents') + sum('plans_cents'),
    service_cents: sum('service_cents'),
    retail_cents: sum('retail_cents'),
    plans_cents: sum('plans_cents'),
    collected_cents: sum('collected_cents'),
    series: list,
  };
}

/** Working minutes with luxon directly: each local period from its wall-clock start to end, less time off. */
function expectedWorkingMinutes(provider: Truth['providers'][number], range: Range, zone: string) {
  let minutes = 0;
  for (let d = range.from; d <= range.to; d = addDays(d, 1)) {
    const midnight = DateTime.fromISO(d, { zone });
    for (const period of provider.working_hours[weekdayOf(d)] ?? []) {
      const start = DateTime.fromISO(`${d}T${period.start}`, { zone }).toMillis();
      const end =
        period.end === '24:00'
          ? midnight.plus({ days: 1 }).toMillis()
          : DateTime.fromISO(`${d}T${period.end}`, { zone }).toMillis();
      let off = 0;
      for (const t of provider.time_off)
        off += Math.max(0, Math.min(end, Date.parse(t.end)) - Math.max(start, Date.parse(t.start)));
      minutes += (end - start - off) / 60_000;
    }
  }
  return minutes;
}

function expectedProviders(truth: Truth, range: Range) {
  return truth.providers.map((provider) => {
    const mine = truth.appointments.filter(
      (a) => a.provider_id === provider.id && within(localDate(a.scheduled_at, truth.zone), range),
    );
    const done = mine.filter((a) => a.status === 'completed');
    const revenue = done.reduce((t, a) => t + a.price_cents, 0);
    const booked = done.reduce((t, a) => t + a.duration_minutes, 0);
    const working = expectedWorkingMinutes(provider, range, truth.zone);
    return {
      provider: { id: provider.id, full_name: provider.full_name },
      appointments_completed: done.length,
      revenue_cents: revenue,
      average_ticket_cents: done.length ? Math.round(revenue / done.length) : 0,
      cancellations: mine.filter((a) => a.status === 'cancelled').length,
      no_shows: mine.filter((a) => a.status === 'no_show').length,
      booked_minutes: booked,
      working_minutes: working,
      utilization: working > 0 ? round4(booked / working) : null,
    };
  });
}

function expectedRetention(truth: Truth, range: Range) {
  const visits = new Map<string, string[]>();
  for (const a of truth.appointments.filter((x) => x.status === 'completed'))
    visits.set(a.client_id, [...(visits.get(a.client_id) ?? []), localDate(a.scheduled_at, truth.zone)]);
  let seen = 0;
  let fresh = 0;
  let returning = 0;
  for (const dates of visits.values()) {
    if (!dates.some((d) => within(d, range))) continue;
    seen += 1;
    if (dates.some((d) => d < range.from)) returning += 1;
    else fresh += 1;
  }
  return {
    clients_seen: seen,
    new_clients: fresh,
    returning_clients: returning,
    retention_rate: seen ? round4(returning / seen) : 0,
  };
}

function expectedServices(truth: Truth, range: Range) {
  return truth.services.map((service) => {
    const mine = truth.appointments.filter(
      (a) => a.service_id === service.id && within(localDate(a.scheduled_at, truth.zone), range),
    );
    const done = mine.filter((a) => a.status === 'completed');
    return {
      service: { id: service.id, name: service.name },
      bookings: mine.length,
      completed: done.length,
      cancelled: mine.filter((a) => a.status === 'cancelled').length,
      revenue_cents: done.reduce((t, a) => t + a.price_cents, 0),
    };
  });
}

const report = async (name: string, range: Range, extra = '') => {
  const response = await call('GET', `/v1/reports/${name}?from=${range.from}&to=${range.to}${extra}`, {
    token: scene.practice.adminToken,
  });
  if (response.status !== 200) throw new Error(`${name}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
};
const byId = <T extends { provider?: { id: string }; service?: { id: string } }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.provider?.id ?? a.service!.id).localeCompare(b.provider?.id ?? b.service!.id));

const RANGES: Record<string, Range> = {
  'the whole window (DST change and a month end inside)': { from: FIRST, to: LAST },
  'three days either side of the DST change': { from: addDays(DST, -3), to: addDays(DST, 3) },
  'across a month end': { from: addDays(MONTH_END, -2), to: addDays(MONTH_END, 3) },
  'the DST change day alone': { from: DST, to: DST },
  'the second half (returning clients)': { from: addDays(FIRST, 24), to: LAST },
  'after the data': { from: addDays(LAST, 2), to: addDays(LAST, 12) },
};

/** Every report of every range against the brute force (the ranges side by side: their reads are independent). */
async function expectReportsToMatch(truth: Truth) {
  await Promise.all(Object.entries(RANGES).map(([name, range]) => expectRangeToMatch(truth, name, range)));
}

async function expectRangeToMatch(truth: Truth, name: string, range: Range) {
  const groups = ['day', 'week', 'month'] as const;
  const [revenues, providers, retention, services] = await Promise.all([
    Promise.all(groups.map((group) => report('revenue', range, `&group_by=${group}`))),
    report('provider-performance', range),
    report('client-retention', range),
    report('service-popularity', range),
  ]);
  for (const [index, group] of groups.entries()) {
    const revenue = revenues[index];
    expect({ name, group, ...revenue }).toEqual({
      name,
      group,
      from: range.from,
      to: range.to,
      currency: 'USD',
      group_by: group,
      ...expectedRevenue(truth, range, group),
    });
  }
  expect({ name, rows: byId(providers) }).toEqual({ name, rows: byId(expectedProviders(truth, range)) });
  expect(providers.map((p: { revenue_cents: number }) => p.revenue_cents)).toEqual(
    [...providers.map((p: { revenue_cents: number }) => p.revenue_cents)].sort((a, b) => b - a),
  );
  expect({ name, ...retention }).toEqual({
    name,
    from: range.from,
    to: range.to,
    ...expectedRetention(truth, range),
  });
  expect({ name, rows: byId(services) }).toEqual({ name, rows: byId(expectedServices(truth, range)) });
  expect(services.map((s: { bookings: number }) => s.bookings)).toEqual(
    [...services.map((s: { bookings: number }) => s.bookings)].sort((a, b) => b - a),
  );
}

/** Every counter of the live generation (zeros dropped, like absent ones). */
async function liveCounters() {
  const { pointer } = await readReportContext(scene.practice.medspaId);
  const counters: Record<string, number> = {};
  for (const kind of ['TOTALS', 'CLIENTS'] as const) {
    for (const day of await queryReportDays(scene.practice.medspaId, pointer.active, kind, {
      from: addDays(FIRST, -3),
      to: addDays(LAST, 3),
    })) {
      for (const [name, value] of Object.entries(day.counters))
        if (value !== 0) counters[`${kind}|${day.date}|${name}`] = value;
    }
  }
  return counters;
}

// ---- Setup ------------------------------------------------------------------------------------------

/**
 * Appointments seeded below the use cases, and stories lived through them. Enough that the
 * appointments take more than one page of the API's list (100), the stream's batches (100
 * records) and the aggregator's units (40 records, halved when over 100 actions) come full, and
 * the rebuild's 4 lanes take about 50 sources each.
 */
const SEEDED = 110;
const LIVED = 18;
/** Payments and sales through the use cases, and seeded; plans sold in the window (half of them paid). */
const MONEY = { payments: 10, sales: 8, seededPayments: 30, seededSales: 20, plansSold: 8 };
/** The appointment booked with a client plan (price 0) and completed. */
let planBooked: { id: string };

beforeAll(async () => {
  const practice = await makePractice({ time_zone: NY });
  const [allDay, weekday, split] = await Promise.all([
    makeProvider(practice, { working_hours: every([{ start: '00:00', end: '24:00' }]) }),
    makeProvider(practice, {
      working_hours: every([{ start: '09:00', end: '17:00' }], WEEK.slice(0, 5)),
      time_off: [{ ...TIME_OFF, reason: 'training' }],
    }),
    makeProvider(practice, {
      working_hours: every([
        { start: '08:00', end: '12:00' },
        { start: '13:00', end: '20:00' },
      ]),
    }),
  ]);
  const providers = { allDay, weekday, split };
  const certified = Object.values(providers).map((p) => p.id);
  const services = await Promise.all(
    [
      [4500, 30],
      [25000, 60],
      [12000, 45],
      [80000, 90],
    ].map(([price, duration]) =>
      makeService(practice, { price_cents: price, duration_minutes: duration, provider_ids: certified }),
    ),
  );
  const clients = await Promise.all(Array.from({ length: 12 }, () => makeClient(practice)));
  const products = await Promise.all([
    makeProduct(practice, { price_cents: 4800 }),
    makeProduct(practice, { price_cents: 2500 }),
  ]);
  const caller = { medspaId: practice.medspaId, clientId: practice.clientId, role: 'admin' as Role };
  for (const product of products)
    await createStockAdjustment(caller, product.id, { delta: 1000, reason: 'received' }, new Date());
  const plans = await Promise.all([
    makePlan(practice, {
      kind: 'package',
      price_cents: 60_000,
      benefits: [{ service_id: services[0].id, quantity: 6 }],
    }),
    makePlan(practice, {
      kind: 'membership',
      name: 'Glow club',
      price_cents: 9_900,
      term_months: 1,
      benefits: [{ service_id: services[1].id, quantity: 2 }],
    }),
  ]);
  scene = { practice, providers, services, clients, products, plans, caller };

  // Through the use cases: every story kind on bookings spread over the window.
  const free: [Kind, string, string][] = [];
  for (const date of DAYS)
    for (const kind of Object.keys(SLOTS) as Kind[])
      for (const time of SLOTS[kind]) if (slotFree(kind, date, time)) free.push([kind, date, time]);
  const step = Math.floor(free.length / LIVED);
  const slots = Array.from({ length: LIVED }, (_, i) => free[i * step]);
  const booked = await inChunks(slots, 9, ([kind, date, time]) => book(kind, date, time));
  await inChunks(
    booked.map((appointment, i) => ({ id: appointment.id, story: storyNumber(i) })),
    9,
    ({ id, story }) => liveThrough(id, story),
  );

  // A plan booking: price 0, completed (its value is the plan's, counted at the sale).
  const mid = practice.medspaId;
  const bought = await sell(plans[0], clients[0].id, new Date(), true);
  const [kind, date, time] = free.find(([k, d, t]) => slotFree(k, d, t))!;
  planBooked = await book(kind, date, time, {
    client_id: clients[0].id,
    service_id: services[0].id,
    client_plan_id: bought.id,
  });
  for (const status of PATHS.completed) await changeStatus(mid, planBooked.id, status as never, { now: new Date() });

  // Plans sold in the window, half with a payment; the package is repriced halfway (sales keep their price).
  for (let i = 0; i < MONEY.plansSold; i += 1) {
    if (i === MONEY.plansSold / 2) {
      await changePlan(mid, plans[0].id, { price_cents: 65_000 }, { now: new Date() });
      plans[0].price_cents = 65_000;
    }
    const clientPlan = await sell(plans[i % 2], pick(clients).id, someInstant(), i % 4 < 2);
    // Later versions of a sold plan sell nothing more.
    if (i === 2) await changePlanStatus(mid, clientPlan.id, 'pause', {}, new Date());
    if (i === 5) await changePlanStatus(mid, clientPlan.id, 'cancel', {}, new Date());
  }

  await seedAppointments(SEEDED);
  await addMoney(MONEY.payments, MONEY.sales);
  await seedMoney(MONEY.seededPayments, MONEY.seededSales);
  await stream.drain();
}, 300_000);

/** The raw data as the API shows it after the setup (read once, for the first two tests). */
let setupTruth: Promise<Truth> | null = null;
const truthAfterSetup = () => {
  setupTruth ??= loadTruth();
  return setupTruth;
};

afterAll(() => stream.close());

describe('reports from stream-kept counters', () => {
  it('the practice has more than a page of appointments in every status, and plans sold, one of them booked', async () => {
    const truth = await truthAfterSetup();
    expect(truth.appointments.length).toBeGreaterThan(100);
    const statuses = new Set(truth.appointments.map((a) => a.status));
    for (const status of ['scheduled', 'confirmed', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show'])
      expect(statuses).toContain(status);
    // The window's payments: through the use case, seeded, and those of the plans sold with one.
    expect(truth.payments.length).toBe(MONEY.payments + MONEY.seededPayments + MONEY.plansSold / 2);
    expect(truth.payments.filter((p) => p.kind === 'plan')).toHaveLength(MONEY.plansSold / 2);
    expect(truth.sales.length).toBeGreaterThan(MONEY.seededSales);
    expect(happened.moved).toBeGreaterThan(5);
    expect(happened.repricedBefore).toBeGreaterThan(3);
    expect(happened.repricedAfterCompletion).toBeGreaterThan(5);
    expect(happened.deleted).toBeGreaterThan(2);
    // Every kind of change also went through the use cases.
    expect(lived).toEqual({
      moved: expect.any(Number),
      repricedBefore: expect.any(Number),
      repricedAfterCompletion: expect.any(Number),
      deleted: expect.any(Number),
      deletedCompleted: expect.any(Number),
    });
    expect(Math.min(...Object.values(lived))).toBeGreaterThan(0);
    // A plan booking is worth 0 as a service when completed.
    expect(truth.appointments.find((a) => a.id === planBooked.id)).toMatchObject({
      status: 'completed',
      price_cents: 0,
    });
    // The figures are not trivially zero: every kind of money and both kinds of clients occur.
    const whole = expectedRevenue(truth, RANGES['the whole window (DST change and a month end inside)'], 'month');
    expect(Math.min(whole.service_cents, whole.retail_cents, whole.plans_cents, whole.collected_cents)).toBeGreaterThan(
      0,
    );
    // Sales before the package's reprice count its old price, those after its new one.
    expect(new Set(truth.plans.map((p) => p.price_cents))).toEqual(new Set([60_000, 65_000, 9_900]));
    const later = expectedRetention(truth, RANGES['the second half (returning clients)']);
    expect(Math.min(later.new_clients, later.returning_clients)).toBeGreaterThan(0);
    expect(
      expectedRevenue(truth, RANGES['three days either side of the DST change'], 'day').service_cents,
    ).toBeGreaterThan(0);
  }, 120_000);

  it('every report equals a brute-force computation over the raw appointments, payments, sales and plans sold', async () => {
    await expectReportsToMatch(await truthAfterSetup());
  }, 300_000);

  it('replaying the stream (again, in other batch sizes, in reverse) leaves every counter unchanged: the ledger knows each version counted', async () => {
    const before = await liveCounters();
    expect(Object.keys(before).length).toBeGreaterThan(100);
    const records = [...stream.seen];
    for (let i = 0; i < records.length; i += 37) await stream.apply(records.slice(i, i + 37));
    expect(await liveCounters()).toEqual(before);
    for (let i = 0; i < records.length; i += 100) await stream.apply(records.slice(i, i + 100));
    expect(await liveCounters()).toEqual(before);
    // Older copies after newer ones: each is skipped by the version its ledger entry holds.
    await stream.apply([...records].reverse());
    expect(await liveCounters()).toEqual(before);
    await stream.drain();
  }, 300_000);

  it('a rebuild from the source records produces exactly the counters the stream produced', async () => {
    const before = await liveCounters();
    const { pointer } = await readReportContext(scene.practice.medspaId);
    const result = await rebuildAggregates(scene.practice.medspaId, { settleMs: 0 });
    expect(result.previousGeneration).toBe(pointer.active);
    expect(result.live).toBe(result.generation);
    expect(result.differences).toBe(0);
    expect((await readReportContext(scene.practice.medspaId)).pointer).toMatchObject({
      active: result.generation,
      building: null,
    });
    expect(await liveCounters()).toEqual(before);
    // The old generation is gone.
    expect(await queryReportDays(scene.practice.medspaId, pointer.active, 'TOTALS', { from: FIRST, to: LAST })).toEqual(
      [],
    );
    await stream.drain();
  }, 300_000);

  it('a rebuild while bookings, status changes, payments and plan sales keep flowing through the stream still ends exact', async () => {
    const mid = scene.practice.medspaId;
    const free: [Kind, string, string][] = [];
    for (const date of DAYS)
      for (const kind of Object.keys(SLOTS) as Kind[])
        for (const time of SLOTS[kind]) if (slotFree(kind, date, time)) free.push([kind, date, time]);
    const building = async () => (await readReportContext(mid)).pointer.building;
    let generation: string | null = null;
    let writing = true;
    let writes: Promise<void> = Promise.resolve();
    let pumping: Promise<void> = Promise.resolve();
    const rebuilt = await rebuildAggregates(mid, {
      // The rebuild has taken its generation and waits before reading the sources: changes
      // streamed now must land in both generations.
      settled: async () => {
        generation = await building();
        expect(generation).not.toBeNull();
        const early = [];
        for (const [kind, date, time] of free.splice(0, 3)) early.push(await book(kind, date, time));
        await updateAppointment(mid, early[0].id, { price_cents: 31_500 }, { now: new Date() });
        await sell(scene.plans[1], scene.clients[1].id, someInstant(), false);
        expect(await stream.drain()).toBeGreaterThan(0);
        expect(await building()).toBe(generation);
        // More changes keep coming while the rebuild reads the sources and counts them.
        writes = (async () => {
          const fresh: { id: string }[] = [...early];
          for (const [kind, date, time] of free.slice(0, 5)) fresh.push(await book(kind, date, time));
          await inChunks(fresh, 4, (appointment) => liveThrough(appointment.id));
          await sell(scene.plans[0], scene.clients[2].id, someInstant(), true);
          await addMoney(6, 4);
          writing = false;
        })();
        // ...and the stream counts them meanwhile, into both generations.
        pumping = (async () => {
          while (writing) {
            await stream.drain();
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
      },
    });
    await Promise.all([writes, pumping]);
    await stream.drain();
    expect(rebuilt.generation).toBe(generation);
    expect((await readReportContext(mid)).pointer).toMatchObject({ active: rebuilt.generation, building: null });
    await expectReportsToMatch(await loadTruth());
    const verify = await rebuildAggregates(mid, { settleMs: 0, verifyOnly: true });
    expect(verify.differences).toBe(0);
    expect((await readReportContext(mid)).pointer).toMatchObject({ active: rebuilt.generation, building: null });
  }, 600_000);

  it('analysts, managers and admins read reports; the front desk and providers get 403', async () => {
    for (const [role, status] of [
      ['analyst', 200],
      ['manager', 200],
      ['front_desk', 403],
      ['provider', 403],
    ] as const) {
      const token = await scene.practice.tokenForRole(role);
      for (const name of ['revenue', 'provider-performance', 'client-retention', 'service-popularity']) {
        const response = await call('GET', `/v1/reports/${name}`, { token });
        expect({ role, name, status: response.status }).toEqual({ role, name, status });
        if (status === 403) expect(response.body.error.code).toBe('FORBIDDEN');
      }
    }
  }, 120_000);

  it('validates the range: default last 30 days, at most 2 years, `to` not before `from`, known group_by and parameters', async () => {
    const token = scene.practice.adminToken;
    const today = todayIn(NY);
    const defaults = await call('GET', '/v1/reports/revenue', { token });
    expect(defaults.body.data).toMatchObject({ from: addDays(today, -29), to: today, group_by: 'day' });
    expect(defaults.body.data.series).toHaveLength(30);
    expect(
      (await call('GET', `/v1/reports/client-retention?from=${FIRST}&to=${addDays(FIRST, 730)}`, { token })).status,
    ).toBe(200);
    for (const [query, path] of [
      [`from=${FIRST}&to=${addDays(FIRST, 731)}`, 'to'],
      [`from=${FIRST}&to=${addDays(FIRST, -1)}`, 'to'],
      ['from=2031-02-30', 'from'],
      ['group_by=year', 'group_by'],
    ]) {
      const response = await call('GET', `/v1/reports/revenue?${query}`, { token });
      expect({ query, status: response.status, code: response.body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const unknown = await call('GET', '/v1/reports/service-popularity?provider=x', { token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('provider');
  }, 120_000);

  it('after a time-zone change new records count under the new zone, and a rebuild recounts everything under it', async () => {
    const mid = scene.practice.medspaId;
    await changePractice(mid, { time_zone: 'America/Los_Angeles' }, { now: new Date() });
    const free: [Kind, string, string][] = [];
    for (const date of DAYS) if (slotFree('split', date, '18:15')) free.push(['split', date, '18:15']);
    for (const [kind, date, time] of free.slice(0, 2)) await book(kind, date, time);
    await addMoney(3, 0);
    await stream.drain();
    await rebuildAggregates(mid, { settleMs: 0 });
    const truth = await loadTruth();
    expect(truth.zone).toBe('America/Los_Angeles');
    await expectReportsToMatch(truth);
  }, 600_000);

  it('a deleted provider keeps a row (with their name) in ranges where they have activity, and only there', async () => {
    const mid = scene.practice.medspaId;
    const token = scene.practice.adminToken;
    const provider = await makeProvider(scene.practice, { working_hours: every([{ start: '00:00', end: '24:00' }]) });
    expect(
      (
        await call('POST', `/v1/services/${scene.services[1].id}/providers`, {
          token,
          body: { provider_id: provider.id },
        })
      ).status,
    ).toBeLessThan(300);
    const appointment = await createAppointment(
      mid,
      {
        client_id: scene.clients[0].id,
        service_id: scene.services[1].id,
        provider_id: provider.id,
        scheduled_at: utc(DST, '10:00'),
        source: 'manual',
      },
      new Date(),
    );
    for (const status of PATHS.completed) await changeStatus(mid, appointment.id, status as never, { now: new Date() });
    expect((await call('DELETE', `/v1/providers/${provider.id}`, { token })).status).toBe(200);
    await stream.drain();
    const rows = await report('provider-performance', { from: addDays(DST, -1), to: addDays(DST, 1) });
    expect(rows.find((row: { provider: { id: string } }) => row.provider.id === provider.id)).toMatchObject({
      provider: { id: provider.id, full_name: provider.full_name },
      appointments_completed: 1,
      revenue_cents: appointment.price_cents,
    });
    const elsewhere = await report('provider-performance', RANGES['after the data']);
    expect(elsewhere.some((row: { provider: { id: string } }) => row.provider.id === provider.id)).toBe(false);
  }, 120_000);
});
