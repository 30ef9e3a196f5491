import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeEquipment, makeProvider, makeRoom, makeService } from '../fixtures/builders';
import { addDays, daysFromToday, localAt, localToday, nextOffsetChange } from '../fixtures/dates';
import { book, makeScene, type Scene } from '../fixtures/scheduling';

const NY = 'America/New_York';
type Slot = { slot_start: string; slot_end: string };
type Entry = { date: string; provider: { id: string; full_name: string }; slots: Slot[] };

const search = (
  scene: Scene,
  params: Record<string, string | number | string[]>,
  token = scene.practice.adminToken,
) => {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) query.append(name, String(one));
  }
  return call<{ data: Entry[]; error: { code: string; details?: { path: string; message: string }[] } }>(
    'GET',
    `/v1/availability?${query}`,
    { token },
  );
};

const slotsOf = (scene: Scene, providerId: string, date: string, query: string) =>
  call('GET', `/v1/providers/${providerId}/slots?date=${date}&${query}`, { token: scene.practice.adminToken }).then(
    (r) => {
      expect(r.status).toBe(200);
      return r.body.data as Slot[];
    },
  );

const patchProvider = async (scene: Scene, id: string, body: Record<string, unknown>) =>
  expect((await call('PATCH', `/v1/providers/${id}`, { token: scene.practice.adminToken, body })).status).toBe(200);

describe('GET /v1/availability equals per-day slots', () => {
  it('for each provider and day, over a range crossing the next New York DST change', async () => {
    const scene = await makeScene({ providers: 3 });
    const [a, b, c] = scene.providers;
    const change = nextOffsetChange(NY);
    // Never today (a slot could pass into the past between two calls); three days either side of the change.
    const from = [addDays(change, -3), daysFromToday(1, NY)].sort().at(-1)!;
    const to = addDays(change, 3);
    // Hours that straddle the 01:00-03:00 change window, split periods, and time off across midnight.
    const every = (periods: { start: string; end: string }[]) =>
      Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, periods]));
    await patchProvider(scene, b.id, {
      working_hours: every([
        { start: '00:30', end: '04:00' },
        { start: '12:00', end: '15:00' },
        { start: '15:00', end: '19:10' },
      ]),
    });
    await patchProvider(scene, c.id, {
      time_off: [{ start: localAt(change, '15:00', NY), end: localAt(addDays(change, 1), '11:00', NY) }],
    });
    for (const [provider, date, hhmm] of [
      [a, change, '10:00'],
      [a, addDays(change, 1), '16:00'],
      [b, change, '01:00'],
      [b, change, '13:30'],
      [c, addDays(change, -1), '09:45'],
    ] as const) {
      const booked = await book(scene, {
        provider_id: provider.id,
        service_id: scene.service.id,
        scheduled_at: localAt(date, hhmm, NY),
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    }

    const found = await search(scene, { service_id: scene.service.id, from, to });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const entries = found.body.data;
    const dates: string[] = [];
    for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
    const pairs = scene.providers.flatMap((provider) => dates.map((date) => ({ provider, date })));
    const perDay = await Promise.all(
      pairs.map(({ provider, date }) => slotsOf(scene, provider.id, date, `service_id=${scene.service.id}`)),
    );
    pairs.forEach(({ provider, date }, i) => {
      const entry = entries.find((e) => e.date === date && e.provider.id === provider.id);
      expect(entry?.slots ?? [], `${provider.full_name} ${date}`).toEqual(perDay[i]);
      if (entry) expect(entry.provider).toEqual({ id: provider.id, full_name: provider.full_name });
    });
    expect(entries.some((e) => e.date === change)).toBe(true);
    // Ordered by date, then provider name; only days with slots appear.
    const order = entries.map((e) => `${e.date} ${e.provider.full_name}`);
    expect(order).toEqual([...order].sort());
    expect(entries.every((e) => e.slots.length > 0)).toBe(true);

    // With a duration, an interval, a room and equipment: still the per-day answer.
    const room = await makeRoom(scene.practice);
    const equipment = await makeEquipment(scene.practice);
    expect(
      (await book(scene, { provider_id: b.id, room_id: room.id, scheduled_at: localAt(change, '16:00', NY) })).status,
    ).toBe(201);
    expect(
      (await book(scene, { provider_id: c.id, equipment_id: equipment.id, scheduled_at: localAt(to, '11:00', NY) }))
        .status,
    ).toBe(201);
    const params = {
      provider_id: [a.id, b.id, c.id].join(','),
      duration_minutes: 40,
      interval_minutes: 20,
      room_id: room.id,
      equipment_id: equipment.id,
    };
    const withAll = (await search(scene, { ...params, from, to })).body.data;
    const perDayAll = await Promise.all(
      pairs.map(({ provider, date }) =>
        slotsOf(
          scene,
          provider.id,
          date,
          `duration_minutes=40&interval_minutes=20&room_id=${room.id}&equipment_id=${equipment.id}`,
        ),
      ),
    );
    pairs.forEach(({ provider, date }, i) => {
      expect(
        withAll.find((e) => e.date === date && e.provider.id === provider.id)?.slots ?? [],
        `${provider.full_name} ${date}`,
      ).toEqual(perDayAll[i]);
    });
  }, 90_000);

  it("time_zone regroups the same slots by the viewer's dates; times stay UTC", async () => {
    const scene = await makeScene({ providers: 2 });
    const from = daysFromToday(2, NY);
    const to = daysFromToday(4, NY);
    const home = (await search(scene, { service_id: scene.service.id, from, to })).body.data;
    const tokyo = await search(scene, { service_id: scene.service.id, from, to, time_zone: 'Asia/Tokyo' });
    expect(tokyo.status).toBe(200);
    const instants = (entries: Entry[], providerId: string) =>
      entries.filter((e) => e.provider.id === providerId).flatMap((e) => e.slots);
    for (const provider of scene.providers)
      expect(instants(tokyo.body.data, provider.id)).toEqual(instants(home, provider.id));
    // 09:00-17:00 in New York straddles midnight in Tokyo: one more date, each slot under its Tokyo date.
    expect(new Set(tokyo.body.data.map((e) => e.date))).toEqual(
      new Set([from, addDays(from, 1), addDays(from, 2), addDays(to, 1)]),
    );
    for (const entry of tokyo.body.data) {
      for (const slot of entry.slots) {
        expect(new Date(Date.parse(slot.slot_start) + 9 * 3_600_000).toISOString().slice(0, 10)).toBe(entry.date);
        expect(slot.slot_start.endsWith('Z')).toBe(true);
      }
    }
  });
});

describe('GET /v1/availability providers, past starts and inactive resources', () => {
  it('without provider_id: every active certified provider, not deleted, inactive or uncertified ones', async () => {
    const scene = await makeScene({ providers: 4 });
    const [active, inactive, deleted, alsoActive] = scene.providers;
    const uncertified = await makeProvider(scene.practice);
    await patchProvider(scene, inactive.id, { active: false });
    expect((await call('DELETE', `/v1/providers/${deleted.id}`, { token: scene.practice.adminToken })).status).toBe(
      200,
    );
    const date = daysFromToday(3, NY);
    const found = await search(scene, { service_id: scene.service.id, from: date, to: date });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(new Set(found.body.data.map((e) => e.provider.id))).toEqual(new Set([active.id, alsoActive.id]));
    expect(found.body.data.some((e) => e.provider.id === uncertified.id)).toBe(false);
    // Named explicitly, an inactive provider is found but has no slots (a create would be refused).
    const named = await search(scene, { service_id: scene.service.id, from: date, to: date, provider_id: inactive.id });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual([]);
  });

  it('comma lists and repeated provider_id mean the same; duplicates count once', async () => {
    const scene = await makeScene({ providers: 3 });
    const [a, b] = scene.providers;
    const date = daysFromToday(2, NY);
    const base = { service_id: scene.service.id, from: date, to: date };
    const comma = await search(scene, { ...base, provider_id: `${a.id},${b.id}` });
    const repeated = await search(scene, { ...base, provider_id: [a.id, b.id, a.id] });
    expect(comma.status).toBe(200);
    expect(repeated.body.data).toEqual(comma.body.data);
    expect(new Set(comma.body.data.map((e) => e.provider.id))).toEqual(new Set([a.id, b.id]));
  });

  it('leaves out slots starting in the past, today included', async () => {
    const scene = await makeScene();
    // Works around the clock, so today has slots before and after now whatever the hour.
    await patchProvider(scene, scene.provider.id, {
      working_hours: Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
      ),
    });
    const today = localToday(NY);
    const before = new Date().toISOString();
    const found = await search(scene, {
      service_id: scene.service.id,
      from: addDays(today, -2),
      to: addDays(today, 1),
      interval_minutes: 30,
    });
    expect(found.status).toBe(200);
    const slots = found.body.data.flatMap((e) => e.slots);
    expect(slots.length).toBeGreaterThan(40);
    expect(slots.every((s) => s.slot_start >= before)).toBe(true);
    expect(found.body.data.some((e) => e.date < today)).toBe(false);
  });

  it('offers nothing for an inactive service, room or equipment (a create would refuse them)', async () => {
    const scene = await makeScene();
    const date = daysFromToday(2, NY);
    const room = await makeRoom(scene.practice, { active: false });
    const equipment = await makeEquipment(scene.practice, { active: false });
    const base = { service_id: scene.service.id, from: date, to: date };
    expect((await search(scene, base)).body.data).toHaveLength(1);
    expect((await search(scene, { ...base, room_id: room.id })).body.data).toEqual([]);
    expect((await search(scene, { ...base, equipment_id: equipment.id })).body.data).toEqual([]);
    const retired = await makeService(scene.practice, { provider_ids: [scene.provider.id], active: false });
    expect((await search(scene, { ...base, service_id: retired.id })).body.data).toEqual([]);
  });

  it('is open to every role that reads appointments', async () => {
    const scene = await makeScene();
    const date = daysFromToday(2, NY);
    for (const role of ['manager', 'front_desk', 'provider', 'analyst'] as const) {
      const token = await scene.practice.tokenForRole(role);
      expect((await search(scene, { service_id: scene.service.id, from: date, to: date }, token)).status, role).toBe(
        200,
      );
    }
    expect((await call('GET', `/v1/availability?service_id=${scene.service.id}&from=${date}&to=${date}`)).status).toBe(
      401,
    );
  });
});

describe('GET /v1/availability after a booking', () => {
  it('no longer offers a booked slot to that provider, and a room in the search is respected', async () => {
    const scene = await makeScene({ providers: 2 });
    const [a, b] = scene.providers;
    const room = await makeRoom(scene.practice);
    const date = daysFromToday(5, NY);
    const params = { service_id: scene.service.id, from: date, to: date, interval_minutes: 60 };
    const starts = (entries: Entry[], providerId: string) =>
      entries.filter((e) => e.provider.id === providerId).flatMap((e) => e.slots.map((s) => s.slot_start));

    const before = (await search(scene, { ...params, room_id: room.id })).body.data;
    const chosen = before.find((e) => e.provider.id === a.id)!.slots[2]!;
    expect(starts(before, b.id)).toContain(chosen.slot_start);
    const booked = await book(scene, { provider_id: a.id, room_id: room.id, scheduled_at: chosen.slot_start });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    const withRoom = (await search(scene, { ...params, room_id: room.id })).body.data;
    expect(starts(withRoom, a.id)).not.toContain(chosen.slot_start);
    // The room is taken at that time, so the other provider cannot have it with this room either.
    expect(starts(withRoom, b.id)).not.toContain(chosen.slot_start);
    expect(starts(withRoom, a.id)).toHaveLength(starts(before, a.id).length - 1);

    const withoutRoom = (await search(scene, params)).body.data;
    expect(starts(withoutRoom, a.id)).not.toContain(chosen.slot_start);
    expect(starts(withoutRoom, b.id)).toContain(chosen.slot_start);

    // And a cancellation gives it back.
    await call('POST', `/v1/appointments/${booked.body.data.id}/cancel`, { token: scene.practice.adminToken });
    expect(starts((await search(scene, { ...params, room_id: room.id })).body.data, a.id)).toContain(chosen.slot_start);
  });
});

describe('GET /v1/availability bad input', () => {
  const errorOf = async (scene: Scene, params: Record<string, string | number | string[]>) => {
    const response = await search(scene, params);
    return {
      status: response.status,
      code: response.body.error?.code,
      paths: [...new Set(response.body.error?.details?.map((d) => d.path))],
    };
  };

  it('unknown service or provider: 404; an uncertified provider named: 422; unknown room or equipment: 404', async () => {
    const scene = await makeScene();
    const stranger = await makeProvider(scene.practice);
    const date = daysFromToday(2, NY);
    const base = { service_id: scene.service.id, from: date, to: date };
    const missing = '5f1b7a52-7d1e-4c7a-9a59-8f0a3c1d2e4b';
    expect(await errorOf(scene, { ...base, service_id: missing })).toMatchObject({
      status: 404,
      code: 'SERVICE_NOT_FOUND',
    });
    expect(await errorOf(scene, { ...base, service_id: 'not-a-uuid' })).toMatchObject({
      status: 404,
      code: 'SERVICE_NOT_FOUND',
    });
    expect(await errorOf(scene, { ...base, provider_id: `${scene.provider.id},${missing}` })).toMatchObject({
      status: 404,
      code: 'PROVIDER_NOT_FOUND',
    });
    expect(await errorOf(scene, { ...base, provider_id: 'nope' })).toMatchObject({
      status: 404,
      code: 'PROVIDER_NOT_FOUND',
    });
    expect(await errorOf(scene, { ...base, provider_id: [scene.provider.id, stranger.id] })).toMatchObject({
      status: 422,
      code: 'PROVIDER_NOT_CERTIFIED',
    });
    expect(await errorOf(scene, { ...base, room_id: missing })).toMatchObject({ status: 404, code: 'ROOM_NOT_FOUND' });
    expect(await errorOf(scene, { ...base, equipment_id: missing })).toMatchObject({
      status: 404,
      code: 'EQUIPMENT_NOT_FOUND',
    });
    // Another practice's ids are absent here.
    const other = await makeScene();
    expect(await errorOf(scene, { ...base, service_id: other.service.id })).toMatchObject({
      status: 404,
      code: 'SERVICE_NOT_FOUND',
    });
    expect(await errorOf(scene, { ...base, provider_id: other.provider.id })).toMatchObject({
      status: 404,
      code: 'PROVIDER_NOT_FOUND',
    });
    // Without a service, any existing provider may be named (no certification to check).
    expect((await search(scene, { from: date, to: date, provider_id: stranger.id, duration_minutes: 30 })).status).toBe(
      200,
    );
  });

  it('inverted, too long or malformed ranges, a bad zone, a missing service: 400 naming the field', async () => {
    const scene = await makeScene();
    const from = daysFromToday(1, NY);
    const base = { service_id: scene.service.id, from, to: from };
    const validation = (path: string) => ({ status: 400, code: 'VALIDATION_ERROR', paths: [path] });
    expect(await errorOf(scene, { ...base, to: addDays(from, -1) })).toEqual(validation('to'));
    expect(await errorOf(scene, { ...base, to: addDays(from, 31) })).toEqual(validation('to'));
    expect((await search(scene, { ...base, to: addDays(from, 30) })).status).toBe(200);
    expect(await errorOf(scene, { ...base, from: '2027-02-30' })).toEqual(validation('from'));
    expect(await errorOf(scene, { ...base, to: 'tomorrow' })).toEqual(validation('to'));
    expect(await errorOf(scene, { service_id: scene.service.id, to: from })).toEqual(validation('from'));
    expect(await errorOf(scene, { ...base, time_zone: 'Mars/Olympus_Mons' })).toEqual(validation('time_zone'));
    expect(await errorOf(scene, { from, to: from })).toEqual(validation('service_id'));
    expect(await errorOf(scene, { from, to: from, provider_id: scene.provider.id })).toEqual(validation('service_id'));
    expect(await errorOf(scene, { from, to: from, duration_minutes: 30 })).toEqual(validation('service_id'));
    expect(await errorOf(scene, { ...base, interval_minutes: 0 })).toEqual(validation('interval_minutes'));
    expect(await errorOf(scene, { ...base, duration_minutes: 481 })).toEqual(validation('duration_minutes'));
    expect(await errorOf(scene, { ...base, providerId: scene.provider.id })).toEqual(validation('providerId'));
    const many = Array.from({ length: 21 }, (_, i) => `5f1b7a52-7d1e-4c7a-9a59-${String(i).padStart(12, '0')}`);
    expect(await errorOf(scene, { ...base, provider_id: many.join(',') })).toEqual(validation('provider_id'));
    expect(await errorOf(scene, { ...base, provider_id: many })).toEqual(validation('provider_id'));
  });

  it('more than 20 active certified providers without provider_id: 400 on provider_id', async () => {
    const scene = await makeScene();
    const crowd = await Promise.all(Array.from({ length: 20 }, () => makeProvider(scene.practice)));
    const service = await makeService(scene.practice, { provider_ids: [scene.provider.id, ...crowd.map((p) => p.id)] });
    const date = daysFromToday(2, NY);
    const response = await search(scene, { service_id: service.id, from: date, to: date });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'provider_id' })]);
    await patchProvider(scene, crowd[0].id, { active: false });
    expect((await search(scene, { service_id: service.id, from: date, to: date })).status).toBe(200);
  });

  it('a search that would try more than 40,000 start times: 400 on interval_minutes', async () => {
    const scene = await makeScene();
    const allDay = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
    );
    const crew = await Promise.all(
      Array.from({ length: 5 }, () => makeProvider(scene.practice, { working_hours: allDay })),
    );
    const from = daysFromToday(1, NY);
    // 5 providers x 31 days x 288 five-minute starts = 44,640.
    const params = {
      from,
      to: addDays(from, 30),
      provider_id: crew.map((p) => p.id).join(','),
      duration_minutes: 5,
      interval_minutes: 5,
    };
    expect(await errorOf(scene, params)).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      paths: ['interval_minutes'],
    });
    expect((await search(scene, { ...params, interval_minutes: 10 })).status).toBe(200);
  });
});
