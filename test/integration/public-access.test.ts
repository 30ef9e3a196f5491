import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deletePublishableKey } from '../../lib/db/publishable-keys';
import { callableRoutes, takesBearer, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { call, makePractice, type TestPractice } from '../fixtures/api';

const ANY_ID = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const urlOf = (route: RouteDef) => route.path.replace(/\{[^}]+\}/g, ANY_ID);
const STAFF_ROUTES = callableRoutes(routes).filter(([, route]) => takesBearer(route)) as [string, RouteDef][];
const PUBLIC_ROUTES = callableRoutes(routes).filter(([, route]) => route.auth === 'publishable') as [
  string,
  RouteDef,
][];

let practice: TestPractice;
let key: string;
let keyId: string;

async function newKey(target: TestPractice, origins = ['https://spa.example']) {
  const created = await call('POST', '/v1/publishable-keys', {
    token: target.adminToken,
    body: { name: 'Website', allowed_origins: origins },
  });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; key: string };
}

const enableOnlineBooking = (target: TestPractice, enabled = true) =>
  call('PATCH', '/v1/practice', { token: target.adminToken, body: { online_booking: { enabled } } });

beforeAll(async () => {
  practice = await makePractice();
  ({ key, id: keyId } = await newKey(practice));
  expect((await enableOnlineBooking(practice)).status).toBe(200);
});
afterEach(() => vi.useRealTimers());

describe('publishable keys (admin)', () => {
  it('create answers { id, key, name, allowed_origins, rate_limits, version, created_at, updated_at }, origins deduplicated; list pages them; analysts may not', async () => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: { name: 'Embed', allowed_origins: ['https://a.example', 'http://localhost:5173', 'https://a.example'] },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual([
      'allowed_origins',
      'created_at',
      'id',
      'key',
      'name',
      'rate_limits',
      'updated_at',
      'version',
    ]);
    expect(created.body.data.key).toMatch(/^pk_[0-9a-f]{64}$/);
    expect(created.body.data.allowed_origins).toEqual(['https://a.example', 'http://localhost:5173']);
    const listed = await call('GET', '/v1/publishable-keys?limit=100', { token: practice.adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toContain(created.body.data.id);
    const analyst = await practice.tokenForRole('analyst');
    expect((await call('GET', '/v1/publishable-keys', { token: analyst })).status).toBe(403);
  });

  it.each([
    [[], 'allowed_origins'],
    [['http://spa.example'], 'allowed_origins.0'],
    [['https://spa.example/'], 'allowed_origins.0'],
    [['https://spa.example/book'], 'allowed_origins.0'],
    [['https://ok.example', 'https://*.example'], 'allowed_origins.1'],
    [['https://a;b.example'], 'allowed_origins.0'],
    [[''], 'allowed_origins.0'],
    [Array.from({ length: 21 }, (_, i) => `https://s${i}.example`), 'allowed_origins'],
  ])('refuses allowed_origins %j (400 at %s)', async (origins, path) => {
    const answer = await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: { name: 'Bad', allowed_origins: origins },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('delete: 200 then 404 PUBLISHABLE_KEY_NOT_FOUND; the key stops at once on the deleting container', async () => {
    const made = await newKey(practice);
    expect((await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': made.key } })).status).toBe(200);
    const deleted = await call('DELETE', `/v1/publishable-keys/${made.id}`, { token: practice.adminToken });
    expect(deleted.body).toEqual({ success: true, data: { id: made.id, deleted: true } });
    expect(
      (await call('DELETE', `/v1/publishable-keys/${made.id}`, { token: practice.adminToken })).body.error.code,
    ).toBe('PUBLISHABLE_KEY_NOT_FOUND');
    expect((await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': made.key } })).status).toBe(401);
  });

  it('a key deleted by another container is refused within 60 s (the lookup cache holds at most AUTH_CACHE_TTL_MS)', async () => {
    const made = await newKey(practice);
    const ask = () => call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': made.key } });
    expect((await ask()).status).toBe(200);
    // Deleted behind this container's back: its cached lookup still says live...
    expect((await deletePublishableKey(practice.medspaId, made.id)).ok).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + 59_000);
    expect((await ask()).status).toBe(200);
    // ...for no more than 60 s.
    vi.setSystemTime(Date.now() + 1_001);
    const refused = await ask();
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
  });
});

describe('the role and key matrix', () => {
  it.each(STAFF_ROUTES)(
    'a publishable key on staff route %s is 401 (as the header, as a bearer, and beside a valid token)',
    async (_operation, route) => {
      const url = urlOf(route);
      for (const headers of [
        { 'x-publishable-key': key },
        { authorization: `Bearer ${key}` },
        { 'x-publishable-key': key, authorization: `Bearer ${practice.adminToken}` },
      ] as Record<string, string>[]) {
        const answer = await call(route.method, url, { headers });
        expect(answer.status, JSON.stringify(headers)).toBe(401);
        expect(answer.body.error.code).toBe('UNAUTHORIZED');
      }
    },
  );

  it('a publishable key on the token exchange is 401, whatever credentials come with it (JSON, form, Basic); nothing is issued', async () => {
    const { clientId, clientSecret } = practice;
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const grant = 'grant_type=client_credentials';
    const json = { client_id: clientId, client_secret: clientSecret };
    for (const key_ of [
      { 'x-publishable-key': key },
      { 'x-publishable-key': 'pk_nonsense' },
      { authorization: `Bearer ${key}` },
    ] as Record<string, string>[]) {
      for (const request of [
        { body: json, headers: key_ },
        { rawBody: `${grant}&client_id=${clientId}&client_secret=${clientSecret}`, headers: { ...form, ...key_ } },
        ...(key_.authorization ? [] : [{ rawBody: grant, headers: { ...form, authorization: basic, ...key_ } }]),
      ]) {
        const answer = await call('POST', '/v1/auth/token', request);
        expect(answer.status, JSON.stringify(request)).toBe(401);
        expect(answer.body.error.code).toBe('UNAUTHORIZED');
        expect(answer.body.access_token).toBeUndefined();
      }
    }
    // The same credentials without a key: a token.
    expect((await call('POST', '/v1/auth/token', { body: json })).status).toBe(200);
  });

  it.each(PUBLIC_ROUTES)(
    'public route %s takes X-Publishable-Key only: a staff bearer token alone is 401, missing/unknown/malformed keys too',
    async (_operation, route) => {
      const url = urlOf(route);
      const unknown = `pk_${practice.medspaId.replace(/-/g, '')}${ANY_ID.replace(/-/g, '')}`;
      for (const headers of [
        { authorization: `Bearer ${practice.adminToken}` },
        {},
        { 'x-publishable-key': unknown },
        { 'x-publishable-key': 'pk_nonsense' },
      ] as Record<string, string>[]) {
        const answer = await call(route.method, url, { headers });
        expect(answer.status, JSON.stringify(headers)).toBe(401);
        expect(answer.body.error.code).toBe('UNAUTHORIZED');
      }
    },
  );
});

describe('GET /v1/public/practice', () => {
  it('answers name, time zone, currency and the booking window and deposit note, nothing else', async () => {
    const answer = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      name: 'Test Spa',
      time_zone: 'America/New_York',
      currency: 'USD',
      online_booking: { horizon_days: 60, min_notice_minutes: 120, cancel_cutoff_minutes: 1440, deposit_note: null },
    });
  });

  it('403 ONLINE_BOOKING_DISABLED while disabled (the default), audited with the key as credential and role public', async () => {
    const other = await makePractice();
    const made = await newKey(other);
    const refused = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': made.key } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ONLINE_BOOKING_DISABLED');
    const log = await call('GET', '/v1/audit-log?limit=100', { token: other.adminToken });
    const entry = log.body.data.find((e: { outcome: string }) => e.outcome === 'ONLINE_BOOKING_DISABLED');
    expect(entry).toMatchObject({ client_id: made.id, role: 'public' });
  });

  it('a waitlisted practice: 403 API_ACCESS_NOT_ENABLED, as for staff calls', async () => {
    const waitlisted = await makePractice();
    const made = await newKey(waitlisted);
    await enableOnlineBooking(waitlisted);
    await call('PATCH', '/v1/practice', { token: waitlisted.adminToken, body: { api_access: 'waitlisted' } });
    const refused = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': made.key } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('API_ACCESS_NOT_ENABLED');
  });

  it('a key of one practice never reads another: the key names its practice', async () => {
    const other = await makePractice({ name: 'Other Spa' });
    await enableOnlineBooking(other);
    const mine = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key } });
    expect(mine.body.data.name).toBe('Test Spa');
    // The id of this practice's key under the other practice's id: no such key there.
    const forged = `pk_${other.medspaId.replace(/-/g, '')}${keyId.replace(/-/g, '')}`;
    expect((await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': forged } })).status).toBe(401);
  });
});

describe('practice settings: online_booking and allowed_origins', () => {
  it('PATCH merges online_booking fields, validates bounds, and GET shows the defaults', async () => {
    const fresh = await makePractice();
    const before = await call('GET', '/v1/practice', { token: fresh.adminToken });
    expect(before.body.data.online_booking).toEqual({
      enabled: false,
      horizon_days: 60,
      min_notice_minutes: 120,
      cancel_cutoff_minutes: 1440,
      max_active_bookings_per_client: 3,
      deposit_note: null,
    });
    expect(before.body.data.allowed_origins).toEqual([]);
    await call('PATCH', '/v1/practice', { token: fresh.adminToken, body: { online_booking: { horizon_days: 30 } } });
    const merged = await call('PATCH', '/v1/practice', {
      token: fresh.adminToken,
      body: { online_booking: { enabled: true }, allowed_origins: ['https://app.example'] },
    });
    expect(merged.body.data.online_booking).toMatchObject({ enabled: true, horizon_days: 30, min_notice_minutes: 120 });
    expect(merged.body.data.allowed_origins).toEqual(['https://app.example']);
    for (const [field, value] of [
      ['horizon_days', 0],
      ['horizon_days', 366],
      ['min_notice_minutes', 10_081],
      ['cancel_cutoff_minutes', -1],
      ['max_active_bookings_per_client', 101],
    ] as const) {
      const bad = await call('PATCH', '/v1/practice', {
        token: fresh.adminToken,
        body: { online_booking: { [field]: value } },
      });
      expect(bad.status, field).toBe(400);
      expect(bad.body.error.details[0].path).toBe(`online_booking.${field}`);
    }
    expect(
      (await call('PATCH', '/v1/practice', { token: fresh.adminToken, body: { allowed_origins: ['ftp://x.example'] } }))
        .status,
    ).toBe(400);
  });

  it("PATCH allowed_origins takes the publishable keys' rules: no wildcard, no non-host characters, no empty origin", async () => {
    const fresh = await makePractice();
    for (const origin of ['https://*.example', 'https://a;b.example', '']) {
      const bad = await call('PATCH', '/v1/practice', {
        token: fresh.adminToken,
        body: { allowed_origins: ['https://app.example', origin] },
      });
      expect(bad.status, origin).toBe(400);
      expect(
        bad.body.error.details.map((d: { path: string }) => d.path),
        origin,
      ).toEqual(['allowed_origins.1']);
    }
    expect((await call('GET', '/v1/practice', { token: fresh.adminToken })).body.data.allowed_origins).toEqual([]);
  });
});
