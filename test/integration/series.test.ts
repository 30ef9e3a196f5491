import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { seriesFaults } from '../../lib/use-cases/series';
import { call } from '../fixtures/api';
import { makeService } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { BOOKING_DAY, book, booked, claimItems, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Series all or none (API reference, series; docs/decisions/0025): every occurrence booked together
 * at the same New York time, or none, even when the request dies midway.
 */

afterEach(() => {
  setClock(null);
  seriesFaults.beforeWrite = undefined;
});

const staff = (scene: Scene) => ({ token: scene.practice.adminToken });
/** Occurrence `index` of a series starting BOOKING_DAY 10:00 New York time, every `every` days. */
const occurrence = (index: number, every: number, hhmm = '10:00') => nyTime(addDays(BOOKING_DAY, index * every), hhmm);
const createSeries = (scene: Scene, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('POST', '/v1/appointment-series', {
    ...staff(scene),
    headers,
    body: {
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      scheduled_at: occurrence(0, 1),
      ...body,
    },
  });
/** Every appointment of the scene's client over the series' span, as the list shows them. */
const clientAppointments = async (scene: Scene) =>
  (
    await call(
      'GET',
      `/v1/appointments?client_id=${scene.client.id}&from=${BOOKING_DAY}&to=${addDays(BOOKING_DAY, 200)}&limit=100`,
      staff(scene),
    )
  ).body.data as { id: string }[];
/** Claim entries of the provider that belong to a series (pending or not yet made permanent). */
const seriesEntries = async (scene: Scene) =>
  (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).flatMap((bucket) =>
    Object.values(bucket.entries).filter((entry) => 'series_id' in entry),
  );
const codeOf = (answer: { status: number; body: { error?: { code: string } } }) =>
  answer.status < 300 ? answer.status : answer.body.error?.code;

describe('a series is booked all together', () => {
  it('12 occurrences every 14 days across the March DST change keep 09:00 New York time, each with series_id; GET answers them', async () => {
    const scene = await makeScene();
    // 4 hours and two 1-hour buffers on a provider, room and equipment: 6 hour buckets x 3 x 12 =
    // 216 claim writes, past one transaction's 100 actions (a longest one makes 612).
    const long = await makeService(scene.practice, {
      provider_ids: [scene.provider.id],
      duration_minutes: 240,
      buffer_before_minutes: 60,
      buffer_after_minutes: 60,
    });
    const created = await createSeries(scene, {
      service_id: long.id,
      scheduled_at: occurrence(0, 14, '09:00'),
      count: 12,
      every_days: 14,
      room_id: scene.room.id,
      equipment_id: scene.equipment.id,
      notes: 'Course',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, appointments } = created.body.data as {
      id: string;
      appointments: { id: string; scheduled_at: string; series_id: string; room_id: string; status: string }[];
    };
    expect(appointments).toHaveLength(12);
    appointments.forEach((appointment, index) => {
      expect(appointment).toMatchObject({ series_id: id, room_id: scene.room.id, status: 'scheduled' });
      expect(appointment.scheduled_at).toBe(new Date(occurrence(index, 14, '09:00')).toISOString());
    });
    // The UTC hour moves with the offset (EST -05:00 then EDT -04:00): the local time does not.
    expect(new Set(appointments.map((a) => a.scheduled_at.slice(11, 16))).size).toBe(2);
    const shown = await call('GET', `/v1/appointment-series/${id}`, staff(scene));
    expect(shown.status).toBe(200);
    expect(shown.body.data.appointments.map((a: { id: string }) => a.id)).toEqual(appointments.map((a) => a.id));
    // Real claims, made permanent: another booking of an occurrence's time is refused.
    expect(await seriesEntries(scene)).toEqual([]);
    expect(codeOf(await book(scene, { scheduled_at: occurrence(5, 14) }))).toBe('PROVIDER_UNAVAILABLE');
    expect(codeOf(await call('GET', `/v1/appointment-series/${scene.client.id}`, staff(scene)))).toBe(
      'SERIES_NOT_FOUND',
    );
  });

  it('a series of 12 that conflicts at occurrences 9 (provider) and 10 (room): 409 SERIES_CONFLICT naming both, nothing booked', async () => {
    const scene = await makeScene({ providers: 2 });
    await booked(scene, { scheduled_at: occurrence(9, 7) });
    await booked(scene, {
      provider_id: scene.providers[1]!.id,
      room_id: scene.room.id,
      scheduled_at: occurrence(10, 7),
    });
    const refused = await createSeries(scene, { count: 12, every_days: 7, room_id: scene.room.id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('SERIES_CONFLICT');
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({
        index: 9,
        scheduled_at: new Date(occurrence(9, 7)).toISOString(),
        code: 'PROVIDER_UNAVAILABLE',
        reason: 'overlap',
      }),
      expect.objectContaining({ index: 10, code: 'ROOM_UNAVAILABLE', reason: 'overlap' }),
    ]);
    // Only the two bookings made before it: none of the series'.
    expect(await clientAppointments(scene)).toHaveLength(2);
    expect(await seriesEntries(scene)).toEqual([]);
    expect(codeOf(await book(scene, { scheduled_at: occurrence(3, 7) }))).toBe(201);
  });
});

describe('a series races single bookings', () => {
  it('a series and 5 parallel creates at its occurrence 6: exactly one of them holds that time, and nothing overlaps', async () => {
    const scene = await makeScene();
    const [series, ...creates] = await Promise.all([
      createSeries(scene, { count: 8, every_days: 7 }),
      ...Array.from({ length: 5 }, () => book(scene, { scheduled_at: occurrence(6, 7, '10:30') })),
    ]);
    const won = creates.filter((create) => create.status === 201).length;
    expect(won + (series.status === 201 ? 1 : 0)).toBe(1);
    if (series.status !== 201) expect(series.body.error.details).toEqual([expect.objectContaining({ index: 6 })]);
    expect(await seriesEntries(scene)).toEqual([]);
    expect(await clientAppointments(scene)).toHaveLength(series.status === 201 ? 8 : 1);
  });
});

describe('a series whose request dies midway leaves nothing visible', () => {
  it('dies after 6 of 12 pending claims: nothing readable, every time free at once (taken back)', async () => {
    const scene = await makeScene();
    let claims = 0;
    seriesFaults.beforeWrite = (step) => {
      if (step === 'claims' && ++claims === 7) throw new Error('injected: the request dies');
    };
    const died = await createSeries(scene, { count: 12, every_days: 7 });
    expect(died.status).toBe(500);
    expect(await clientAppointments(scene)).toEqual([]);
    expect(await seriesEntries(scene)).toEqual([]);
    for (const index of [0, 5, 11]) expect(codeOf(await book(scene, { scheduled_at: occurrence(index, 7) }))).toBe(201);
  });

  it('dies at the commit with no take-back: nothing readable, the pending claims block until they expire and then free themselves', async () => {
    const scene = await makeScene();
    seriesFaults.beforeWrite = (step) => {
      if (step === 'commit' || step === 'take-back') throw new Error('injected: the request dies');
    };
    const died = await createSeries(scene, { count: 12, every_days: 7, room_id: scene.room.id });
    expect(died.status).toBe(500);
    seriesFaults.beforeWrite = undefined;
    expect(await clientAppointments(scene)).toEqual([]);
    expect((await seriesEntries(scene)).length).toBeGreaterThanOrEqual(12);
    expect(codeOf(await book(scene, { scheduled_at: occurrence(4, 7) }))).toBe('PROVIDER_UNAVAILABLE');
    setClock(() => new Date(Date.now() + 121_000));
    expect(codeOf(await book(scene, { scheduled_at: occurrence(4, 7), room_id: scene.room.id }))).toBe(201);
    const again = await createSeries(scene, { count: 3, every_days: 7, scheduled_at: occurrence(7, 7) });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it('dies after the commit, before its claims are made permanent: the series stands, and its claims keep blocking past their expiry', async () => {
    const scene = await makeScene();
    seriesFaults.beforeWrite = (step) => {
      if (step === 'finalize') throw new Error('injected: the request dies');
    };
    const created = await createSeries(scene, { count: 12, every_days: 7 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    seriesFaults.beforeWrite = undefined;
    expect(await seriesEntries(scene)).toHaveLength(12);
    setClock(() => new Date(Date.now() + 121_000));
    const late = await book(scene, { scheduled_at: occurrence(8, 7) });
    expect(late.body.error?.details).toEqual([
      expect.objectContaining({ reason: 'overlap', appointment_id: created.body.data.appointments[8].id }),
    ]);
    // A hold and a move read the committed series the same way.
    const held = await call('POST', '/v1/holds', {
      ...staff(scene),
      body: { service_id: scene.service.id, provider_id: scene.provider.id, scheduled_at: occurrence(9, 7) },
    });
    expect(codeOf(held)).toBe('PROVIDER_UNAVAILABLE');
    const other = await booked(scene, { scheduled_at: occurrence(10, 7, '13:00') });
    const moved = await call('PATCH', `/v1/appointments/${other.id}`, {
      ...staff(scene),
      body: { scheduled_at: occurrence(10, 7) },
    });
    expect(codeOf(moved)).toBe('PROVIDER_UNAVAILABLE');
    expect(await clientAppointments(scene)).toHaveLength(13);
  });
});

describe('cancelling a series', () => {
  it('cancels its future active appointments (each a cancel: reason, freed time) and answers the series; 404 for an unknown one', async () => {
    const scene = await makeScene();
    const key = { 'idempotency-key': `series-${scene.client.id}` };
    const body = { count: 3, every_days: 7, equipment_id: scene.equipment.id };
    const created = await createSeries(scene, body, key);
    const id = created.body.data.id as string;
    // A replay of the same key and body answers the same series, booking nothing more.
    expect((await createSeries(scene, body, key)).body.data.id).toBe(id);
    expect(await clientAppointments(scene)).toHaveLength(3);
    const first = created.body.data.appointments[0].id as string;
    expect(codeOf(await call('POST', `/v1/appointments/${first}/cancel`, { ...staff(scene), body: {} }))).toBe(200);
    const cancelled = await call('POST', `/v1/appointment-series/${id}/cancel`, {
      ...staff(scene),
      body: { reason: 'Course stopped' },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.appointments).toEqual([
      expect.objectContaining({ id: first, status: 'cancelled', cancellation_reason: null }),
      expect.objectContaining({ status: 'cancelled', cancellation_reason: 'Course stopped', series_id: id }),
      expect.objectContaining({ status: 'cancelled', cancellation_reason: 'Course stopped', series_id: id }),
    ]);
    expect(codeOf(await book(scene, { scheduled_at: occurrence(1, 7) }))).toBe(201);
    const unknown = await call('POST', `/v1/appointment-series/${scene.client.id}/cancel`, {
      ...staff(scene),
      body: {},
    });
    expect(codeOf(unknown)).toBe('SERIES_NOT_FOUND');
  });
});
