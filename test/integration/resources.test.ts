import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getEntity } from '../../lib/db/batch';
import { clientCodec } from '../../lib/db/codecs';
import { seedDemoPracticeData } from '../../infra/local/demo-data';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import {
  EVERY_DAY_9_TO_5,
  makeClient,
  makeEquipment,
  makeProvider,
  makeRoom,
  makeService,
  viaApi,
} from '../fixtures/builders';
import { addDays, futureWeekday } from '../fixtures/dates';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The soft-deletable kinds: their path, 404 code, a builder (and its twin through the API) and a valid PATCH. */
const DELETABLE = [
  {
    name: 'providers',
    path: '/v1/providers',
    code: 'PROVIDER_NOT_FOUND',
    make: makeProvider,
    create: viaApi.makeProvider,
    patch: { title: 'NP' },
  },
  {
    name: 'rooms',
    path: '/v1/rooms',
    code: 'ROOM_NOT_FOUND',
    make: makeRoom,
    create: viaApi.makeRoom,
    patch: { description: 'Quiet room' },
  },
  {
    name: 'equipment',
    path: '/v1/equipment',
    code: 'EQUIPMENT_NOT_FOUND',
    make: makeEquipment,
    create: viaApi.makeEquipment,
    patch: { description: 'Serviced' },
  },
  {
    name: 'clients',
    path: '/v1/clients',
    code: 'CLIENT_NOT_FOUND',
    make: makeClient,
    create: viaApi.makeClient,
    patch: { notes: 'Prefers mornings' },
  },
] as const;

const ALL_KINDS = [
  ...DELETABLE,
  {
    name: 'services',
    path: '/v1/services',
    code: 'SERVICE_NOT_FOUND',
    make: makeService,
    create: viaApi.makeService,
    patch: { price_cents: 12000 },
  },
] as const;

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
};

const listAll = async (practice: TestPractice, path: string) => {
  const response = await call('GET', `${path}?limit=100`, { token: practice.adminToken });
  expect(response.status).toBe(200);
  return response.body as { data: any[]; pagination: { total: number; next_cursor: string | null } };
};

let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

describe.each(ALL_KINDS)('$name: common behaviour', (kind) => {
  it('creates with server-assigned id, version 1 and timestamps; GET returns it with an ETag', async () => {
    const created = await kind.create(practice);
    expect(created.id).toMatch(UUID);
    expect(created).toMatchObject({ medspa_id: practice.medspaId, version: 1 });
    expect(created.created_at).toBe(created.updated_at);
    expect(new Date(created.created_at).toISOString()).toBe(created.created_at);

    const got = await call('GET', `${kind.path}/${created.id}`, { token: practice.adminToken });
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('"1"');
    expect(got.body.data).toEqual(created);
  });

  it('answers its own 404 code for unknown and malformed ids, on every verb', async () => {
    for (const id of ['not-a-uuid', randomUUID(), 'x'.repeat(300), '%E2%9C%93']) {
      expectError(await call('GET', `${kind.path}/${id}`, { token: practice.adminToken }), 404, kind.code);
      expectError(
        await call('PATCH', `${kind.path}/${id}`, { token: practice.adminToken, body: kind.patch }),
        404,
        kind.code,
      );
      if (kind.name !== 'services')
        expectError(await call('DELETE', `${kind.path}/${id}`, { token: practice.adminToken }), 404, kind.code);
    }
  });

  it('PATCH with a matching If-Match: 200, version + 1, ETag; stale: 409 and nothing changed', async () => {
    const created = await kind.make(practice);
    const url = `${kind.path}/${created.id}`;
    const updated = await call('PATCH', url, {
      token: practice.adminToken,
      body: kind.patch,
      headers: { 'if-match': '"1"' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toMatchObject({ ...kind.patch, version: 2 });
    expect(updated.headers.etag).toBe('"2"');

    const stale = await call('PATCH', url, {
      token: practice.adminToken,
      body: kind.patch,
      headers: { 'if-match': 'W/"1"' },
    });
    expectError(stale, 409, 'VERSION_CONFLICT');
    const after = await call('GET', url, { token: practice.adminToken });
    expect(after.body.data).toEqual(updated.body.data);
  });

  it('is invisible to another practice', async () => {
    const created = await kind.make(practice);
    const other = await makePractice();
    expectError(await call('GET', `${kind.path}/${created.id}`, { token: other.adminToken }), 404, kind.code);
    expectError(
      await call('PATCH', `${kind.path}/${created.id}`, { token: other.adminToken, body: kind.patch }),
      404,
      kind.code,
    );
    expect((await listAll(other, kind.path)).pagination.total).toBe(0);
  });

  it('rejects unknown fields with 400 VALIDATION_ERROR and details, on create and PATCH', async () => {
    const before = (await listAll(practice, kind.path)).pagination.total;
    const created = await call('POST', kind.path, {
      token: practice.adminToken,
      body: { name: 'X', first_name: 'A', last_name: 'B', bogus: 1 },
    });
    expectError(created, 400, 'VALIDATION_ERROR');
    expect(created.body.error.details.length).toBeGreaterThan(0);
    expect((await listAll(practice, kind.path)).pagination.total).toBe(before);

    const existing = await kind.make(practice);
    const patched = await call('PATCH', `${kind.path}/${existing.id}`, {
      token: practice.adminToken,
      body: { bogus: 1 },
    });
    expectError(patched, 400, 'VALIDATION_ERROR');
    expect((await call('GET', `${kind.path}/${existing.id}`, { token: practice.adminToken })).body.data.version).toBe(
      1,
    );
  });
});

describe.each(DELETABLE)('$name: soft delete', (kind) => {
  it('DELETE answers { id, deleted: true }; afterwards GET, PATCH and DELETE are 404 and lists skip it', async () => {
    const fresh = await makePractice();
    const [kept, gone] = [await kind.make(fresh), await kind.make(fresh)];
    const url = `${kind.path}/${gone.id}`;

    const deleted = await call('DELETE', url, { token: fresh.adminToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { id: gone.id, deleted: true } });

    expectError(await call('GET', url, { token: fresh.adminToken }), 404, kind.code);
    expectError(await call('PATCH', url, { token: fresh.adminToken, body: kind.patch }), 404, kind.code);
    expectError(
      await call('PATCH', url, { token: fresh.adminToken, body: kind.patch, headers: { 'if-match': '"1"' } }),
      404,
      kind.code,
    );
    expectError(await call('DELETE', url, { token: fresh.adminToken }), 404, kind.code);

    const list = await listAll(fresh, kind.path);
    expect(list.data.map((item) => item.id)).toEqual([kept.id]);
    expect(list.pagination.total).toBe(1);
  });

  it('DELETE honours If-Match: stale is 409 and nothing is deleted; matching deletes', async () => {
    const created = await kind.make(practice);
    const url = `${kind.path}/${created.id}`;
    expectError(
      await call('DELETE', url, { token: practice.adminToken, headers: { 'if-match': '"7"' } }),
      409,
      'VERSION_CONFLICT',
    );
    expect((await call('GET', url, { token: practice.adminToken })).body.data).toEqual(created);
    expect((await call('DELETE', url, { token: practice.adminToken, headers: { 'if-match': '1' } })).status).toBe(200);
    expectError(await call('GET', url, { token: practice.adminToken }), 404, kind.code);
  });
});

describe('list pagination', () => {
  it('pages with limit=2 cover every item once, with the right total and a null cursor at the end', async () => {
    const fresh = await makePractice();
    const rooms = [];
    for (let i = 0; i < 5; i++) rooms.push(await makeRoom(fresh));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await call('GET', `/v1/rooms?limit=2${query}`, { token: fresh.adminToken });
      expect(page.status).toBe(200);
      expect(page.body.pagination.total).toBe(5);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((room: { id: string }) => room.id));
      cursor = page.body.pagination.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect([...seen].sort()).toEqual(rooms.map((room) => room.id).sort());
  });

  it('rejects a bad limit or cursor with 400', async () => {
    expectError(await call('GET', '/v1/clients?limit=0', { token: practice.adminToken }), 400, 'VALIDATION_ERROR');
    expectError(await call('GET', '/v1/clients?limit=101', { token: practice.adminToken }), 400, 'VALIDATION_ERROR');
    expectError(
      await call('GET', '/v1/clients?cursor=garbage', { token: practice.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('providers', () => {
  it('derives full_name, fills every weekday, stores time off in UTC and defaults active', async () => {
    // Upcoming time off: a day off weeks ahead, and a later stretch given with an offset.
    const [dayOff, holidays] = [futureWeekday('mon', 2), futureWeekday('thu', 6)];
    const response = await call('POST', '/v1/providers', {
      token: practice.adminToken,
      body: {
        first_name: 'Ava',
        last_name: 'Reyes',
        email: 'ava@example.com',
        working_hours: {
          mon: [
            { start: '13:00', end: '24:00' },
            { start: '08:00', end: '12:00' },
          ],
        },
        time_off: [
          { start: `${holidays}T09:00:00-05:00`, end: `${addDays(holidays, 2)}T09:00:00-05:00`, reason: 'Holidays' },
          { start: `${dayOff}T00:00:00Z`, end: `${addDays(dayOff, 1)}T00:00:00Z` },
        ],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    expect(response.body.data).toMatchObject({
      first_name: 'Ava',
      last_name: 'Reyes',
      full_name: 'Ava Reyes',
      email: 'ava@example.com',
      title: null,
      active: true,
      working_hours: {
        mon: [
          { start: '08:00', end: '12:00' },
          { start: '13:00', end: '24:00' },
        ],
        tue: [],
        wed: [],
        thu: [],
        fri: [],
        sat: [],
        sun: [],
      },
      time_off: [
        { start: `${dayOff}T00:00:00.000Z`, end: `${addDays(dayOff, 1)}T00:00:00.000Z`, reason: null },
        { start: `${holidays}T14:00:00.000Z`, end: `${addDays(holidays, 2)}T14:00:00.000Z`, reason: 'Holidays' },
      ],
    });
  });

  it('PATCH keeps full_name in step, replaces only the working days given, and replaces time off', async () => {
    const provider = await makeProvider(practice, {
      first_name: 'Sam',
      last_name: 'Lee',
      time_off: [{ start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' }],
    });
    const response = await call('PATCH', `/v1/providers/${provider.id}`, {
      token: practice.adminToken,
      body: {
        last_name: 'Lee-Park',
        working_hours: { sat: [], sun: [{ start: '10:00', end: '14:00' }] },
        time_off: [],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({ full_name: 'Sam Lee-Park', version: 2, time_off: [] });
    expect(data.working_hours).toEqual({ ...EVERY_DAY_9_TO_5, sat: [], sun: [{ start: '10:00', end: '14:00' }] });
  });

  it.each([
    ['an hour past 24:00', { working_hours: { mon: [{ start: '09:00', end: '25:00' }] } }, 'working_hours.mon.0.end'],
    [
      'a period ending before it starts',
      { working_hours: { tue: [{ start: '17:00', end: '09:00' }] } },
      'working_hours.tue.0.end',
    ],
    ['an unknown weekday', { working_hours: { monday: [] } }, 'working_hours.monday'],
    [
      'time off ending before it starts',
      { time_off: [{ start: '2026-05-02T00:00:00Z', end: '2026-05-01T00:00:00Z' }] },
      'time_off.0.end',
    ],
    [
      'time off without an offset',
      { time_off: [{ start: '2026-05-01T00:00:00', end: '2026-05-02T00:00:00Z' }] },
      'time_off.0.start',
    ],
    ['a bad email', { email: 'not-an-email' }, 'email'],
    ['a missing last name', { last_name: undefined }, 'last_name'],
  ])('rejects %s with 400 and writes nothing', async (_label, overrides, path) => {
    const fresh = await makePractice();
    const body = { first_name: 'A', last_name: 'B', ...overrides };
    const response = await call('POST', '/v1/providers', { token: fresh.adminToken, body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await listAll(fresh, '/v1/providers')).pagination.total).toBe(0);
  });

  it('a bad PATCH changes nothing', async () => {
    const provider = await makeProvider(practice);
    const response = await call('PATCH', `/v1/providers/${provider.id}`, {
      token: practice.adminToken,
      body: { working_hours: { mon: [{ start: '09:00', end: '25:00' }] } },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect((await call('GET', `/v1/providers/${provider.id}`, { token: practice.adminToken })).body.data).toEqual(
      provider,
    );
  });

  it('a provider-role token may read providers but not create them', async () => {
    const token = await practice.tokenForRole('provider');
    expect((await call('GET', '/v1/providers', { token })).status).toBe(200);
    expectError(
      await call('POST', '/v1/providers', { token, body: { first_name: 'A', last_name: 'B' } }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('rooms and equipment', () => {
  it.each([
    ['/v1/rooms', 'Room A'],
    ['/v1/equipment', 'CO2 laser'],
  ])('%s: create, update, list', async (path, name) => {
    const fresh = await makePractice();
    const created = await call('POST', path, { token: fresh.adminToken, body: { name } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name, description: null, active: true, version: 1 });
    const updated = await call('PATCH', `${path}/${created.body.data.id}`, {
      token: fresh.adminToken,
      body: { active: false, description: 'Out of order' },
    });
    expect(updated.body.data).toMatchObject({ name, description: 'Out of order', active: false, version: 2 });
    const list = await listAll(fresh, path);
    expect(list.data).toEqual([updated.body.data]);
    expect(list.pagination).toEqual({ total: 1, next_cursor: null });
  });

  it('requires a name', async () => {
    expectError(
      await call('POST', '/v1/rooms', { token: practice.adminToken, body: { description: 'x' } }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', '/v1/equipment', { token: practice.adminToken, body: { name: '  ' } }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('services', () => {
  it('creates with certified providers, defaults and filters by category', async () => {
    const fresh = await makePractice();
    const [a, b] = [await makeProvider(fresh), await makeProvider(fresh)];
    // The subject is the create: through the API.
    const botox = await viaApi.makeService(fresh, {
      name: 'Botox',
      category: 'injectables',
      provider_ids: [a.id, b.id, a.id],
    });
    expect(botox).toMatchObject({
      name: 'Botox',
      category: 'injectables',
      price_cents: 10000,
      duration_minutes: 60,
      active: true,
      description: null,
      provider_ids: [a.id, b.id],
    });
    const peel = await viaApi.makeService(fresh, { name: 'Peel', category: 'facials' });
    expect(peel.provider_ids).toEqual([]);

    const injectables = await call('GET', '/v1/services?category=injectables', { token: fresh.adminToken });
    expect(injectables.body.data.map((s: { id: string }) => s.id)).toEqual([botox.id]);
    expect(injectables.body.pagination).toEqual({ total: 1, next_cursor: null });
    expect((await call('GET', '/v1/services?category=none', { token: fresh.adminToken })).body.pagination.total).toBe(
      0,
    );
    expect((await listAll(fresh, '/v1/services')).pagination.total).toBe(2);
  });

  it('refuses unknown, malformed or deleted provider ids with 404 PROVIDER_NOT_FOUND and writes nothing', async () => {
    const fresh = await makePractice();
    const gone = await makeProvider(fresh);
    await call('DELETE', `/v1/providers/${gone.id}`, { token: fresh.adminToken });
    for (const id of [randomUUID(), 'not-a-uuid', gone.id]) {
      const response = await call('POST', '/v1/services', {
        token: fresh.adminToken,
        body: { name: 'X', price_cents: 1, duration_minutes: 30, provider_ids: [id] },
      });
      expectError(response, 404, 'PROVIDER_NOT_FOUND');
    }
    expect((await listAll(fresh, '/v1/services')).pagination.total).toBe(0);

    const service = await makeService(fresh);
    expectError(
      await call('PATCH', `/v1/services/${service.id}`, {
        token: fresh.adminToken,
        body: { provider_ids: [randomUUID()] },
      }),
      404,
      'PROVIDER_NOT_FOUND',
    );
    expect((await call('GET', `/v1/services/${service.id}`, { token: fresh.adminToken })).body.data.version).toBe(1);
    expectError(
      await call('PATCH', `/v1/services/${randomUUID()}`, {
        token: fresh.adminToken,
        body: { provider_ids: [randomUUID()] },
      }),
      404,
      'SERVICE_NOT_FOUND',
    );
  });

  it.each([
    ['a negative price', { price_cents: -1 }, 'price_cents'],
    ['a fractional price', { price_cents: 10.5 }, 'price_cents'],
    ['a too short duration', { duration_minutes: 4 }, 'duration_minutes'],
    ['a too long duration', { duration_minutes: 481 }, 'duration_minutes'],
    ['a missing price', { price_cents: undefined }, 'price_cents'],
  ])('rejects %s with 400', async (_label, overrides, path) => {
    const response = await call('POST', '/v1/services', {
      token: practice.adminToken,
      body: { name: 'X', price_cents: 100, duration_minutes: 30, ...overrides },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('assigns (answering the service) and unassigns (answering the deletion, honouring If-Match) idempotently', async () => {
    const provider = await makeProvider(practice);
    const service = await makeService(practice);
    const url = `/v1/services/${service.id}/providers`;

    const assigned = await call('POST', url, { token: practice.adminToken, body: { provider_id: provider.id } });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ id: service.id, provider_ids: [provider.id], version: 2 });
    const again = await call('POST', url, { token: practice.adminToken, body: { provider_id: provider.id } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ provider_ids: [provider.id], version: 2 });

    const stale = await call('DELETE', `${url}/${provider.id}`, {
      token: practice.adminToken,
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    const unassigned = await call('DELETE', `${url}/${provider.id}`, {
      token: practice.adminToken,
      headers: { 'if-match': '"2"' },
    });
    expect(unassigned.status).toBe(200);
    expect(unassigned.body.data).toEqual({ id: provider.id, deleted: true });
    const twice = await call('DELETE', `${url}/${provider.id}`, { token: practice.adminToken });
    expect(twice.body.data).toEqual({ id: provider.id, deleted: true });
    const after = await call('GET', `/v1/services/${service.id}`, { token: practice.adminToken });
    expect(after.body.data).toMatchObject({ provider_ids: [], version: 3 });
  });

  it('assign and unassign answer SERVICE_NOT_FOUND, then PROVIDER_NOT_FOUND', async () => {
    const provider = await makeProvider(practice);
    const service = await makeService(practice);
    const token = practice.adminToken;
    expectError(
      await call('POST', `/v1/services/${randomUUID()}/providers`, { token, body: { provider_id: randomUUID() } }),
      404,
      'SERVICE_NOT_FOUND',
    );
    expectError(
      await call('POST', '/v1/services/not-a-uuid/providers', { token, body: { provider_id: provider.id } }),
      404,
      'SERVICE_NOT_FOUND',
    );
    expectError(
      await call('POST', `/v1/services/${service.id}/providers`, { token, body: { provider_id: randomUUID() } }),
      404,
      'PROVIDER_NOT_FOUND',
    );
    expectError(
      await call('POST', `/v1/services/${service.id}/providers`, { token, body: { provider_id: 'nope' } }),
      404,
      'PROVIDER_NOT_FOUND',
    );
    expectError(
      await call('DELETE', `/v1/services/${randomUUID()}/providers/${provider.id}`, { token }),
      404,
      'SERVICE_NOT_FOUND',
    );
    expectError(
      await call('DELETE', `/v1/services/${service.id}/providers/not-a-uuid`, { token }),
      404,
      'PROVIDER_NOT_FOUND',
    );
    expectError(
      await call('POST', `/v1/services/${service.id}/providers`, { token, body: {} }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('a deleted provider is withdrawn by its deletion, then is 404 to unassign and cannot be assigned again', async () => {
    const provider = await makeProvider(practice);
    const service = await makeService(practice, { provider_ids: [provider.id] });
    await call('DELETE', `/v1/providers/${provider.id}`, { token: practice.adminToken });
    const token = practice.adminToken;
    expect((await call('GET', `/v1/services/${service.id}`, { token })).body.data.provider_ids).toEqual([]);
    expectError(
      await call('DELETE', `/v1/services/${service.id}/providers/${provider.id}`, { token }),
      404,
      'PROVIDER_NOT_FOUND',
    );
    expectError(
      await call('POST', `/v1/services/${service.id}/providers`, { token, body: { provider_id: provider.id } }),
      404,
      'PROVIDER_NOT_FOUND',
    );
  });

  it('concurrent assignments all land', async () => {
    const providers = await Promise.all([1, 2, 3, 4].map(() => makeProvider(practice)));
    const service = await makeService(practice);
    const responses = await Promise.all(
      providers.map((p) =>
        call('POST', `/v1/services/${service.id}/providers`, {
          token: practice.adminToken,
          body: { provider_id: p.id },
        }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const final = (await call('GET', `/v1/services/${service.id}`, { token: practice.adminToken })).body.data;
    expect([...final.provider_ids].sort()).toEqual(providers.map((p) => p.id).sort());
    expect(final.version).toBe(5);
  });

  it('front desk may read services but not create them', async () => {
    const token = await practice.tokenForRole('front_desk');
    expect((await call('GET', '/v1/services', { token })).status).toBe(200);
    expectError(
      await call('POST', '/v1/services', { token, body: { name: 'X', price_cents: 1, duration_minutes: 30 } }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('clients', () => {
  it('creates with defaults and read-only visit fields', async () => {
    const response = await call('POST', '/v1/clients', {
      token: practice.adminToken,
      body: {
        first_name: 'Olivia',
        last_name: 'Hart',
        date_of_birth: '1988-04-12',
        address: { line1: '1 Main St', city: 'Boston' },
        tags: ['vip', 'vip', 'new'],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data).toMatchObject({
      first_name: 'Olivia',
      last_name: 'Hart',
      email: null,
      phone: null,
      date_of_birth: '1988-04-12',
      address: { line1: '1 Main St', line2: null, city: 'Boston', region: null, postal_code: null, country: null },
      membership_status: 'none',
      membership_tier: null,
      tags: ['vip', 'new'],
      notes: null,
      health_score: 0,
      last_visit_at: null,
      total_spent_cents: 0,
      visit_count: 0,
      version: 1,
    });
  });

  it('PATCH changes fields, replaces the address and may clear nullable fields; read-only fields are refused', async () => {
    const client = await makeClient(practice, { address: { line1: '1 Main St', city: 'Boston' } });
    const url = `/v1/clients/${client.id}`;
    const response = await call('PATCH', url, {
      token: practice.adminToken,
      body: {
        membership_status: 'active',
        membership_tier: 'Gold',
        email: null,
        address: { city: 'Salem' },
        tags: ['vip'],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({
      membership_status: 'active',
      membership_tier: 'Gold',
      email: null,
      phone: client.phone,
      address: { line1: null, city: 'Salem' },
      tags: ['vip'],
      version: 2,
    });
    for (const body of [{ health_score: 90 }, { visit_count: 3 }, { id: randomUUID() }, { version: 9 }]) {
      expectError(await call('PATCH', url, { token: practice.adminToken, body }), 400, 'VALIDATION_ERROR');
    }
  });

  it.each([
    ['a bad email', { email: 'x@' }, 'email'],
    ['a bad membership status', { membership_status: 'gold' }, 'membership_status'],
    ['a bad date of birth', { date_of_birth: '1990-02-30' }, 'date_of_birth'],
    ['a future date of birth', { date_of_birth: '2999-01-01' }, 'date_of_birth'],
    ['an address as a string', { address: '1 Main St' }, 'address'],
    ['an unknown address part', { address: { street: 'x' } }, 'address'],
  ])('rejects %s with 400', async (_label, overrides, path) => {
    const response = await call('POST', '/v1/clients', {
      token: practice.adminToken,
      body: { first_name: 'A', last_name: 'B', ...overrides },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.some((d: { path: string }) => d.path.startsWith(path))).toBe(true);
  });

  it('delete erases contact details from the stored record', async () => {
    const client = await makeClient(practice, {
      date_of_birth: '1990-01-01',
      notes: 'Allergic to lidocaine',
      address: { line1: '1 Main St' },
    });
    expect((await call('DELETE', `/v1/clients/${client.id}`, { token: practice.adminToken })).status).toBe(200);
    const stored = await getEntity(clientCodec, practice.medspaId, client.id);
    expect(stored).toMatchObject({
      first_name: 'Deleted',
      last_name: 'Client',
      email: null,
      phone: null,
      address: null,
      date_of_birth: null,
      notes: null,
      version: 2,
    });
    expect(typeof stored?.deleted_at).toBe('string');
  });

  it('front desk may create, change and delete clients; provider and analyst may only read', async () => {
    const frontDesk = await practice.tokenForRole('front_desk');
    const created = await call('POST', '/v1/clients', { token: frontDesk, body: { first_name: 'F', last_name: 'D' } });
    expect(created.status).toBe(201);
    expect(
      (await call('PATCH', `/v1/clients/${created.body.data.id}`, { token: frontDesk, body: { notes: 'x' } })).status,
    ).toBe(200);
    for (const role of ['provider', 'analyst'] as const) {
      const token = await practice.tokenForRole(role);
      expect((await call('GET', `/v1/clients/${created.body.data.id}`, { token })).status).toBe(200);
      expectError(
        await call('POST', '/v1/clients', { token, body: { first_name: 'A', last_name: 'B' } }),
        403,
        'FORBIDDEN',
      );
      expectError(await call('DELETE', `/v1/clients/${created.body.data.id}`, { token }), 403, 'FORBIDDEN');
    }
    expect((await call('DELETE', `/v1/clients/${created.body.data.id}`, { token: frontDesk })).status).toBe(200);
  });
});

describe('demo seed', () => {
  it('creates providers, rooms, equipment, services with certified providers, clients, and a week of appointments', async () => {
    const fresh = await makePractice({ time_zone: 'America/New_York' });
    const seeded = await seedDemoPracticeData(fresh.medspaId, new Date());
    // Today and 6 more days hold at least 4 weekdays of 6 bookings each.
    expect(seeded.appointments).toBeGreaterThanOrEqual(24);
    const week = await call('GET', '/v1/appointments?limit=100', { token: fresh.adminToken });
    expect(week.status).toBe(200);
    expect(week.body.pagination.total).toBe(seeded.appointments);
    expect(week.body.data.every((a: { status: string }) => a.status === 'scheduled')).toBe(true);
    const totals = await Promise.all(
      ['/v1/providers', '/v1/rooms', '/v1/equipment', '/v1/services', '/v1/clients'].map((path) =>
        listAll(fresh, path),
      ),
    );
    expect(totals.map((list) => list.pagination.total)).toEqual([3, 2, 2, 4, 5]);
    const [providers, , , services] = totals;
    const providerIds = new Set(providers.data.map((p) => p.id));
    expect(services.data.map((s) => s.name).sort()).toEqual([
      'Botox',
      'Chemical Peel',
      'HydraFacial',
      'Laser Hair Removal',
    ]);
    for (const service of services.data) {
      expect(service.provider_ids.length).toBeGreaterThan(0);
      expect(service.provider_ids.every((id: string) => providerIds.has(id))).toBe(true);
    }
    expect(providers.data.filter((p) => p.working_hours.sat.length > 0)).toHaveLength(1);
  });
});
