import { beforeAll, describe, expect, it } from 'vitest';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '../../lib/domain/cors';
import { call, makePractice, type TestPractice } from '../fixtures/api';

const SITE = 'https://spa.example';
const APP = 'https://app.example';
const STRANGER = 'https://evil.example';
const CORS_HEADERS = [
  'access-control-allow-origin',
  'vary',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-allow-credentials',
];

const corsOf = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => CORS_HEADERS.includes(name)));
const answerHeaders = (origin: string) => ({
  'access-control-allow-origin': origin,
  vary: 'Origin',
  'access-control-expose-headers': CORS_EXPOSE_HEADERS.join(', '),
});

let practice: TestPractice;
let key: string;
let keyId: string;
beforeAll(async () => {
  practice = await makePractice();
  ({ key, id: keyId } = (
    await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: { name: 'Site', allowed_origins: [SITE] },
    })
  ).body.data);
  await call('PATCH', '/v1/practice', {
    token: practice.adminToken,
    body: { online_booking: { enabled: true }, allowed_origins: [APP] },
  });
});

describe('CORS preflight (OPTIONS on any /v1 path)', () => {
  it.each([SITE, STRANGER])(
    "answers 204 with the path's methods for any origin (%s): it cannot know the practice",
    async (origin) => {
      const answer = await call('OPTIONS', '/v1/appointments/6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b', {
        headers: { origin, 'access-control-request-method': 'PATCH' },
      });
      expect(answer.status).toBe(204);
      expect(corsOf(answer.headers)).toEqual({
        'access-control-allow-origin': origin,
        vary: 'Origin',
        'access-control-allow-methods': 'GET, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': CORS_ALLOW_HEADERS.join(', '),
        'access-control-max-age': '600',
      });
      expect(answer.body).toBeUndefined();
    },
  );

  it('public paths too; the methods are those of the path', async () => {
    const answer = await call('OPTIONS', '/v1/public/practice', { headers: { origin: SITE } });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    expect(
      (await call('OPTIONS', '/v1/publishable-keys', { headers: { origin: SITE } })).headers[
        'access-control-allow-methods'
      ],
    ).toBe('GET, POST, OPTIONS');
  });

  it("a /v1 path no route has: 404 NOT_FOUND; outside /v1 the fallback's 404", async () => {
    expect((await call('OPTIONS', '/v1/nothing-here', { headers: { origin: SITE } })).status).toBe(404);
    expect((await call('OPTIONS', '/health', { headers: { origin: SITE } })).status).toBe(404);
  });
});

describe('CORS on actual requests', () => {
  it("public route from the key's origin: the answer carries exactly the CORS answer headers, never credentials", async () => {
    const answer = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key, origin: SITE } });
    expect(answer.status).toBe(200);
    expect(corsOf(answer.headers)).toEqual(answerHeaders(SITE));
  });

  it('public route from another origin: 403 ORIGIN_NOT_ALLOWED with no CORS headers; without Origin unchanged', async () => {
    const refused = await call('GET', '/v1/public/practice', {
      headers: { 'x-publishable-key': key, origin: STRANGER },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(corsOf(refused.headers)).toEqual({});
    const server = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key } });
    expect(server.status).toBe(200);
    expect(corsOf(server.headers)).toEqual({});
  });

  it("a public call refused for its origin is audited in the key's practice (the key's id, role public); a made-up or deleted key's 401 is not", async () => {
    const appointmentId = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const read = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key, origin: STRANGER } });
    const cancel = await call('POST', `/v1/public/bookings/${appointmentId}/cancel`, {
      headers: { 'x-publishable-key': key, 'x-booking-token': 'x', origin: STRANGER },
      body: {},
    });
    const gone = (
      await call('POST', '/v1/publishable-keys', {
        token: practice.adminToken,
        body: { name: 'Gone', allowed_origins: [SITE] },
      })
    ).body.data;
    expect((await call('DELETE', `/v1/publishable-keys/${gone.id}`, { token: practice.adminToken })).status).toBe(200);
    const madeUp = `pk_${practice.medspaId.replace(/-/g, '')}${appointmentId.replace(/-/g, '')}`;
    const unidentified = await Promise.all(
      [gone.key, madeUp].map((pk) =>
        call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': pk, origin: STRANGER } }),
      ),
    );
    expect([read, cancel, ...unidentified].map((answer) => answer.status)).toEqual([403, 403, 401, 401]);

    const log = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    expect(log.status).toBe(200);
    const entryOf = (answer: { body: { error: { request_id: string } } }) =>
      log.body.data.find((entry: { request_id: string }) => entry.request_id === answer.body.error.request_id);
    expect(entryOf(read)).toMatchObject({
      client_id: keyId,
      role: 'public',
      operation: 'getPublicPractice',
      method: 'GET',
      outcome: 'ORIGIN_NOT_ALLOWED',
      status: 403,
    });
    expect(entryOf(cancel)).toMatchObject({
      client_id: keyId,
      role: 'public',
      operation: 'cancelPublicBooking',
      resource_id: appointmentId,
      outcome: 'ORIGIN_NOT_ALLOWED',
      status: 403,
    });
    for (const answer of unidentified) expect(entryOf(answer)).toBeUndefined();
  });

  it("public route from the API's own origin (the booking page it serves): always allowed", async () => {
    const own = 'http://api.local:3000';
    const answer = await call('GET', '/v1/public/practice', {
      headers: { 'x-publishable-key': key, origin: own, host: 'api.local:3000', 'x-forwarded-proto': 'http' },
    });
    expect(answer.status).toBe(200);
    expect(corsOf(answer.headers)).toEqual(answerHeaders(own));
  });

  it('errors to an allowed origin carry the headers too (a 400 of a public route)', async () => {
    const other = await makePractice();
    const otherKey = (
      await call('POST', '/v1/publishable-keys', {
        token: other.adminToken,
        body: { name: 'Site', allowed_origins: [SITE] },
      })
    ).body.data.key;
    // Online booking is off there: 403 ONLINE_BOOKING_DISABLED, readable by the site.
    const answer = await call('GET', '/v1/public/practice', {
      headers: { 'x-publishable-key': otherKey, origin: SITE },
    });
    expect(answer.body.error.code).toBe('ONLINE_BOOKING_DISABLED');
    expect(corsOf(answer.headers)).toEqual(answerHeaders(SITE));
  });

  it("staff route with a bearer token from the practice's allowed_origins: allowed; from others 403 with no CORS headers", async () => {
    const allowed = await call('GET', '/v1/practice', { token: practice.adminToken, headers: { origin: APP } });
    expect(allowed.status).toBe(200);
    expect(corsOf(allowed.headers)).toEqual(answerHeaders(APP));
    const refused = await call('GET', '/v1/practice', { token: practice.adminToken, headers: { origin: SITE } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(corsOf(refused.headers)).toEqual({});
  });

  it('refused before any work: a POST from a refused origin creates nothing', async () => {
    const refused = await call('POST', '/v1/rooms', {
      token: practice.adminToken,
      headers: { origin: STRANGER },
      body: { name: 'Room X' },
    });
    expect(refused.status).toBe(403);
    const rooms = await call('GET', '/v1/rooms', { token: practice.adminToken });
    expect(rooms.body.data.map((room: { name: string }) => room.name)).not.toContain('Room X');
  });

  it('an unidentified caller (no or unknown credential): 401, readable from any origin so a web app can sign in again', async () => {
    for (const [url, headers] of [
      ['/v1/practice', {}],
      ['/v1/practice', { authorization: 'Bearer not-a-token' }],
      ['/v1/public/practice', { 'x-publishable-key': 'pk_unknown' }],
    ] as const) {
      const answer = await call('GET', url, { headers: { ...headers, origin: STRANGER } });
      expect(answer.status).toBe(401);
      expect(corsOf(answer.headers)).toEqual(answerHeaders(STRANGER));
    }
  });

  it("unauthenticated documents answer any origin; the token exchange only the API's own", async () => {
    const health = await call('GET', '/health', { headers: { origin: STRANGER } });
    expect(health.status).toBe(200);
    expect(corsOf(health.headers)).toEqual(answerHeaders(STRANGER));
    const token = await call('POST', '/v1/auth/token', {
      headers: { origin: STRANGER },
      body: { client_id: practice.clientId, client_secret: practice.clientSecret },
    });
    expect(token.status).toBe(403);
    expect(token.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(corsOf(token.headers)).toEqual({});
  });

  it('an answer that varies on more than Origin keeps one Vary header with all its names (the OpenAPI document)', async () => {
    const answer = await call('GET', '/v1/openapi.json', { headers: { origin: STRANGER } });
    expect(answer.status).toBe(200);
    expect(answer.headers.vary).toBe('Host, X-Forwarded-Proto, Accept-Encoding, Origin');
    expect(answer.headers['access-control-allow-origin']).toBe(STRANGER);
    // Gzipped for a browser that takes it, with the same CORS answer (the test's `call` reads it as a client does).
    const gzipped = await call('GET', '/v1/openapi.json', { headers: { origin: STRANGER, 'accept-encoding': 'gzip' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['access-control-allow-origin']).toBe(STRANGER);
    expect(gzipped.body).toEqual(answer.body);
  });
});
