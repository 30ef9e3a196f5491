import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../lib/http/errors';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { AppError } from '../../lib/errors';
import { call, makePractice, type CallResult, type TestPractice } from '../fixtures/api';

function expectError(response: CallResult, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expectErrorEnvelope(response);
}

/** `{ success: false, error: { code, message, details?, request_id } }`, request_id = X-Request-Id, no internals. */
function expectErrorEnvelope(response: CallResult) {
  expect(response.body.success).toBe(false);
  expect(Object.keys(response.body).sort()).toEqual(['error', 'success']);
  const { error } = response.body;
  expect(typeof error.code).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(error.request_id).toBe(response.headers['x-request-id']);
  for (const key of Object.keys(error)) expect(['code', 'message', 'details', 'request_id']).toContain(key);
  const text = JSON.stringify(response.body);
  expect(text).not.toMatch(/\bstack\b|\n\s+at |\.ts:\d+|node_modules/);
}

const credentialTotal = async (practice: TestPractice) => {
  const response = await call('GET', '/v1/credentials', { token: practice.adminToken });
  expect(response.status).toBe(200);
  return response.body.pagination.total as number;
};

/** Valid JSON (`{"name":"Padded","role":"analyst"}` plus trailing spaces) of exactly `bytes` bytes. */
const paddedBody = (bytes: number) => {
  const json = JSON.stringify({ name: 'Padded', role: 'analyst' });
  return json + ' '.repeat(bytes - Buffer.byteLength(json));
};

describe('request bodies', () => {
  it.each(['{"name":', '{name: "x", role: "admin"}', 'not json', '{"name":"x","role":"admin"}}'])(
    'malformed JSON %j: 400 INVALID_JSON and nothing changes',
    async (rawBody) => {
      const practice = await makePractice();
      const before = await credentialTotal(practice);
      const response = await call('POST', '/v1/credentials', {
        token: practice.adminToken,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectError(response, 400, 'INVALID_JSON');
      expect(await credentialTotal(practice)).toBe(before);
    },
  );

  it('malformed JSON on PATCH leaves the practice unchanged', async () => {
    const practice = await makePractice();
    const before = await call('GET', '/v1/practice', { token: practice.adminToken });
    expectError(
      await call('PATCH', '/v1/practice', { token: practice.adminToken, rawBody: '{"name": "x",}' }),
      400,
      'INVALID_JSON',
    );
    expect((await call('GET', '/v1/practice', { token: practice.adminToken })).body.data).toEqual(before.body.data);
  });

  it('wrong types: 400 VALIDATION_ERROR naming the field', async () => {
    const practice = await makePractice();
    const response = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 5, role: 'admin' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details[0].path).toBe('name');
    expect(typeof response.body.error.details[0].message).toBe('string');
  });

  it('an unknown role: 400 VALIDATION_ERROR on role', async () => {
    const practice = await makePractice();
    const before = await credentialTotal(practice);
    const response = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 'Root', role: 'superuser' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual(['role']);
    expect(await credentialTotal(practice)).toBe(before);
  });

  it('missing and unknown fields: 400 VALIDATION_ERROR', async () => {
    const practice = await makePractice();
    const missing = await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name: 'No role' } });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(missing.body.error.details[0].path).toBe('role');
    expectError(
      await call('POST', '/v1/credentials', {
        token: practice.adminToken,
        body: { name: 'x', role: 'admin', extra: true },
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name: '   ', role: 'admin' } }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it.each(['null', '[]', '"a string"', '42', 'true'])(
    'a JSON body that is not an object (%s): 400 VALIDATION_ERROR, not 500',
    async (rawBody) => {
      const practice = await makePractice();
      expectError(
        await call('POST', '/v1/credentials', {
          token: practice.adminToken,
          rawBody,
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'VALIDATION_ERROR',
      );
    },
  );

  it('no body where one is required: 400 VALIDATION_ERROR', async () => {
    const practice = await makePractice();
    expectError(await call('POST', '/v1/credentials', { token: practice.adminToken }), 400, 'VALIDATION_ERROR');
  });

  it('a body over 256 KiB: 413 PAYLOAD_TOO_LARGE and nothing created', async () => {
    const practice = await makePractice();
    const before = await credentialTotal(practice);
    const big = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 'x'.repeat(300 * 1024), role: 'admin' },
    });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
    expect(await credentialTotal(practice)).toBe(before);
  });

  it('the limit is exactly 256 KiB, counted in bytes', async () => {
    const practice = await makePractice();
    const before = await credentialTotal(practice);
    expect(MAX_BODY_BYTES).toBe(256 * 1024);

    const atLimit = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      rawBody: paddedBody(MAX_BODY_BYTES),
      headers: { 'content-type': 'application/json' },
    });
    expect(atLimit.status).toBe(201);
    const overLimit = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      rawBody: paddedBody(MAX_BODY_BYTES + 1),
      headers: { 'content-type': 'application/json' },
    });
    expectError(overLimit, 413, 'PAYLOAD_TOO_LARGE');

    // 100 000 characters but 300 000 bytes.
    const multibyte = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: '€'.repeat(100_000), role: 'admin' },
    });
    expectError(multibyte, 413, 'PAYLOAD_TOO_LARGE');
    expect(await credentialTotal(practice)).toBe(before + 1);
  });
});

describe('responses', () => {
  it('every response carries a distinct X-Request-Id, errors included, and errors echo it as request_id', async () => {
    const practice = await makePractice();
    const frontDesk = await practice.tokenForRole('front_desk');
    const responses = [
      await call('GET', '/health'),
      await call('GET', '/.well-known/jwks.json'),
      await call('POST', '/v1/auth/token', {
        body: { client_id: practice.clientId, client_secret: practice.clientSecret },
      }),
      await call('GET', '/v1/practice', { token: practice.adminToken }),
      await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name: 'ok', role: 'analyst' } }),
      await call('POST', '/v1/auth/token', { body: { client_id: practice.clientId, client_secret: 'wrong' } }),
      await call('POST', '/v1/credentials', { token: practice.adminToken, rawBody: '{' }),
      await call('GET', '/v1/practice'),
      await call('POST', '/v1/credentials', { token: frontDesk, body: { name: 'x', role: 'admin' } }),
      await call('DELETE', '/v1/credentials/ci_nobody', { token: practice.adminToken }),
      await call('GET', '/v1/no-such-route', { token: practice.adminToken }),
      await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name: 'x'.repeat(MAX_BODY_BYTES) } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 201, 401, 400, 401, 403, 404, 404, 413]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    // Shaped like API Gateway's (`$context.requestId`), which is what a Lambda sees on AWS.
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const response of responses.filter((r) => r.status >= 400)) expectErrorEnvelope(response);
    for (const response of responses) expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('an unknown route is a 404 NOT_FOUND envelope', async () => {
    const practice = await makePractice();
    expectError(await call('GET', '/v1/nothing-here', { token: practice.adminToken }), 404, 'NOT_FOUND');
    expectError(await call('GET', '/v2/practice', { token: practice.adminToken }), 404, 'NOT_FOUND');
    expectError(await call('GET', '/'), 404, 'NOT_FOUND');
    // A known path with a method it does not have.
    const wrongMethod = await call('PUT', '/v1/practice', { token: practice.adminToken, body: { name: 'x' } });
    expect([404, 405]).toContain(wrongMethod.status);
    expectErrorEnvelope(wrongMethod);
  });

  it('an unexpected failure is a bare 500 INTERNAL_ERROR: no message, no stack', () => {
    const error = new Error('connect ECONNREFUSED 10.0.0.1:8000 table medspa secret=abc');
    const response = errorResponse(error, 'req-1', 'someOperation');
    expect(response.statusCode).toBe(500);
    const body = JSON.parse(String(response.body));
    expect(body).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: expect.any(String), request_id: 'req-1' },
    });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toMatch(/\n\s+at |\.ts:\d+/);
    // A known error keeps its code and details.
    const known = errorResponse(
      new AppError('VALIDATION_ERROR', 'bad', { details: [{ path: 'x', message: 'y' }] }),
      'req-2',
      'op',
    );
    expect(JSON.parse(String(known.body)).error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'bad',
      details: [{ path: 'x', message: 'y' }],
      request_id: 'req-2',
    });
  });

  it('security headers are set on successes and errors', async () => {
    const practice = await makePractice();
    const responses = [
      await call('GET', '/v1/practice', { token: practice.adminToken }),
      await call('GET', '/v1/practice'),
      await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { time_zone: 'Mars/Base' } }),
      await call('POST', '/v1/auth/token', {
        body: { client_id: practice.clientId, client_secret: practice.clientSecret },
      }),
      await call('DELETE', '/v1/no-such-route', { rawBody: '{not json' }),
    ];
    for (const response of responses) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(response.headers).not.toHaveProperty('x-powered-by');
    }
  });

  it('success envelopes: 201 on create, 200 { id, deleted: true } on DELETE, lists with pagination', async () => {
    const practice = await makePractice();
    const created = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 'Envelope', role: 'provider' },
    });
    expect(created.status).toBe(201);
    expect(created.body.success).toBe(true);
    expect(created.body.data).toMatchObject({
      name: 'Envelope',
      role: 'provider',
      medspa_id: practice.medspaId,
      revoked_at: null,
    });
    expect(created.body.data.client_secret).toMatch(/^cs_/);
    expect(created.body.data).not.toHaveProperty('secret_hash');

    const listed = await call('GET', '/v1/credentials', { token: practice.adminToken });
    expect(listed.body).toEqual({
      success: true,
      data: expect.any(Array),
      pagination: { total: 2, next_cursor: null },
    });
    for (const credential of listed.body.data) {
      expect(credential).not.toHaveProperty('client_secret');
      expect(credential).not.toHaveProperty('secret_hash');
    }

    const deleted = await call('DELETE', `/v1/credentials/${created.body.data.client_id}`, {
      token: practice.adminToken,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, data: { id: created.body.data.client_id, deleted: true } });
  });
});

describe('lists', () => {
  it('pages with ?limit= and an opaque cursor; total on every page', async () => {
    const practice = await makePractice();
    for (const name of ['one', 'two']) {
      expect(
        (await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name, role: 'analyst' } })).status,
      ).toBe(201);
    }
    const first = await call('GET', '/v1/credentials?limit=2', { token: practice.adminToken });
    expect(first.body.data).toHaveLength(2);
    expect(first.body.pagination).toEqual({ total: 3, next_cursor: expect.any(String) });
    const second = await call(
      'GET',
      `/v1/credentials?limit=2&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
      { token: practice.adminToken },
    );
    expect(second.body.data).toHaveLength(1);
    expect(second.body.pagination).toEqual({ total: 3, next_cursor: null });
    const all = [...first.body.data, ...second.body.data].map((c: { client_id: string }) => c.client_id);
    expect(new Set(all).size).toBe(3);
  });

  it.each(['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'cursor=garbage', 'cursor=eyJwayI6IngifQ'])(
    '?%s: 400 VALIDATION_ERROR',
    async (query) => {
      const practice = await makePractice();
      expectError(
        await call('GET', `/v1/credentials?${query}`, { token: practice.adminToken }),
        400,
        'VALIDATION_ERROR',
      );
    },
  );

  it("a cursor from another practice's list is refused, not followed", async () => {
    const a = await makePractice();
    const b = await makePractice();
    await call('POST', '/v1/credentials', { token: b.adminToken, body: { name: 'b2', role: 'analyst' } });
    const bPage = await call('GET', '/v1/credentials?limit=1', { token: b.adminToken });
    const cursor = bPage.body.pagination.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    expectError(
      await call('GET', `/v1/credentials?limit=1&cursor=${encodeURIComponent(cursor)}`, { token: a.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
  });
});

describe('PATCH /v1/practice', () => {
  const patch = (practice: TestPractice, body: unknown, ifMatch?: string) =>
    call('PATCH', '/v1/practice', {
      token: practice.adminToken,
      body,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    });

  it('honours If-Match: stale is 409 VERSION_CONFLICT; "v", W/"v" and bare v succeed and the ETag moves on', async () => {
    const practice = await makePractice();
    const current = await call('GET', '/v1/practice', { token: practice.adminToken });
    expect(current.headers.etag).toBe('"1"');
    expect(current.body.data.version).toBe(1);

    const stale = await patch(practice, { name: 'Stale' }, '"0"');
    expectError(stale, 409, 'VERSION_CONFLICT');
    expect((await call('GET', '/v1/practice', { token: practice.adminToken })).body.data).toEqual(current.body.data);

    const quoted = await patch(practice, { name: 'Quoted' }, '"1"');
    expect(quoted.status).toBe(200);
    expect(quoted.headers.etag).toBe('"2"');
    expect(quoted.body.data).toMatchObject({ name: 'Quoted', version: 2 });

    const weak = await patch(practice, { name: 'Weak' }, 'W/"2"');
    expect(weak.status).toBe(200);
    expect(weak.headers.etag).toBe('"3"');

    const bare = await patch(practice, { name: 'Bare' }, '3');
    expect(bare.status).toBe(200);
    expect(bare.headers.etag).toBe('"4"');

    expectError(await patch(practice, { name: 'Old' }, '"3"'), 409, 'VERSION_CONFLICT');
    expectError(await patch(practice, { name: 'Future' }, '"99"'), 409, 'VERSION_CONFLICT');

    const unconditional = await patch(practice, { name: 'Unconditional' });
    expect(unconditional.status).toBe(200);
    expect(unconditional.headers.etag).toBe('"5"');

    const after = await call('GET', '/v1/practice', { token: practice.adminToken });
    expect(after.headers.etag).toBe('"5"');
    expect(after.body.data).toMatchObject({ name: 'Unconditional', version: 5 });
  });

  it.each(['abc', '"x"', '1,2', 'W/', '"1', '1"', '-1', ''])(
    'a malformed If-Match %j: 400 VALIDATION_ERROR and nothing changes',
    async (ifMatch) => {
      const practice = await makePractice();
      const response = await patch(practice, { name: 'Nope' }, ifMatch);
      expectError(response, 400, 'VALIDATION_ERROR');
      expect((await call('GET', '/v1/practice', { token: practice.adminToken })).body.data).toMatchObject({
        name: 'Test Spa',
        version: 1,
      });
    },
  );

  it('validates settings: time zone, currency, reminder lead, unknown fields', async () => {
    const practice = await makePractice();
    const mars = await patch(practice, { time_zone: 'Mars/Base' });
    expectError(mars, 400, 'VALIDATION_ERROR');
    expect(mars.body.error.details[0].path).toBe('time_zone');
    expectError(await patch(practice, { currency: 'usd' }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { reminder_lead_minutes: -1 }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { reminder_lead_minutes: '60' }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { api_access: 'maybe' }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { name: '' }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { version: 7 }), 400, 'VALIDATION_ERROR');
    expectError(await patch(practice, { id: 'other' }), 400, 'VALIDATION_ERROR');
    expect((await call('GET', '/v1/practice', { token: practice.adminToken })).body.data.version).toBe(1);

    const ok = await patch(practice, { time_zone: 'Europe/Paris', currency: 'EUR', reminder_lead_minutes: 120 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      time_zone: 'Europe/Paris',
      currency: 'EUR',
      reminder_lead_minutes: 120,
      version: 2,
    });
  });

  it('a new practice has the documented defaults', async () => {
    const practice = await makePractice();
    const response = await call('GET', '/v1/practice', { token: practice.adminToken });
    expect(response.body.data).toMatchObject({
      id: practice.medspaId,
      reminder_lead_minutes: 1440,
      api_access: 'enabled',
      version: 1,
      currency: 'USD',
    });
    expect(new Date(response.body.data.created_at).toISOString()).toBe(response.body.data.created_at);
  });
});

describe('order of checks', () => {
  it('authenticates before reading the body: no token with a bad or huge body is 401', async () => {
    for (const rawBody of ['{not json', 'x'.repeat(300 * 1024)]) {
      const response = await call('POST', '/v1/credentials', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});
