import { dispatch } from '../../infra/local/router';
import { beforeAll, describe, expect, it } from 'vitest';
import { keyIpRateLimitKey, rateLimitKey } from '../../lib/db/keys';
import { readItem } from '../../lib/db/key-reads';
import { route } from '../../lib/http/route';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { counted } from '../fixtures/ddb-calls';
import { withRateLimits } from '../fixtures/rate-limits';

let practice: TestPractice;
let key: string;
beforeAll(async () => {
  practice = await makePractice();
  key = (
    await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: { name: 'Site', allowed_origins: ['https://spa.example'] },
    })
  ).body.data.key;
  await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { online_booking: { enabled: true } } });
});
// After the set-up above, which exchanges a token (a per-IP limited call).
withRateLimits(
  { RATE_LIMIT_IP_RPS: '1', RATE_LIMIT_IP_BURST: '3' },
  { RATE_LIMIT_IP_RPS: '1000', RATE_LIMIT_IP_BURST: '1000000' },
);

const from = async (
  sourceIp: string,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: unknown,
) => {
  const response = await dispatch({
    method,
    url,
    sourceIp,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: response.body ? JSON.parse(response.body) : undefined,
  };
};

describe('rate limits per client IP', () => {
  it('the token exchange: a burst from one address gets 429 RATE_LIMITED with Retry-After, wrong secrets included; another address is not affected', async () => {
    const exchange = (ip: string, secret: string) =>
      from(ip, 'POST', '/v1/auth/token', {}, { client_id: practice.clientId, client_secret: secret });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => exchange('203.0.113.7', i % 2 ? practice.clientSecret : 'wrong')),
    );
    expect(answers.filter((answer) => answer.status === 429).length).toBe(3);
    for (const answer of answers) expect(answer.headers['ratelimit-limit']).toBe('3');
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await exchange('203.0.113.8', practice.clientSecret)).status).toBe(200);
  });

  it('public calls: a made-up key counts against its address (401 until 429); once refused, the address costs no call at all and writes nothing in the practice', async () => {
    const ask = (ip: string, withKey = key) => from(ip, 'GET', '/v1/public/practice', { 'x-publishable-key': withKey });
    const madeUpId = '00000000-0000-4000-8000-000000000000';
    const unknown = `pk_${practice.medspaId.replace(/-/g, '')}${madeUpId.replace(/-/g, '')}`;
    const flood = [];
    for (let i = 0; i < 4; i += 1) flood.push((await ask('198.51.100.3', unknown)).status);
    expect(flood).toEqual([401, 401, 401, 429]);
    const refused = await counted(() => ask('198.51.100.3', unknown));
    expect(refused.result.status).toBe(429);
    expect(refused.result.headers['retry-after']).toBeTruthy();
    expect(refused.calls).toEqual({});
    // Only the address's bucket was written: no bucket of the made-up key in the practice.
    expect(await readItem(rateLimitKey(practice.medspaId, madeUpId))).toBeUndefined();
    expect(await readItem(keyIpRateLimitKey(practice.medspaId, madeUpId, '198.51.100.3'))).toBeUndefined();
  });

  it("public calls with a real key never take from the address's bucket (the key's own budgets apply: key-rate-limits.test.ts)", async () => {
    for (let i = 0; i < 5; i += 1)
      expect((await from('198.51.100.4', 'GET', '/v1/public/practice', { 'x-publishable-key': key })).status).toBe(200);
  });

  it("a flood of refused origins from one address: every call 403, but only those within the visitor's budget on the key audited", async () => {
    const small = await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: {
        name: 'Small',
        allowed_origins: ['https://spa.example'],
        rate_limits: { per_client_ip: { requests_per_second: 1, burst: 3 } },
      },
    });
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    const answers = [];
    for (let i = 0; i < 5; i += 1)
      answers.push(
        await from('198.51.100.9', 'GET', '/v1/public/practice', {
          'x-publishable-key': small.body.data.key,
          origin: 'https://evil.example',
        }),
      );
    expect(answers.map((answer) => answer.body.error.code)).toEqual(
      Array.from({ length: 5 }, () => 'ORIGIN_NOT_ALLOWED'),
    );
    const log = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    const audited = new Set(log.body.data.map((entry: { request_id: string }) => entry.request_id));
    expect(answers.map((answer) => audited.has(answer.body.error.request_id))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('a staff route cannot ask for a per-IP limit it would never take (refused where the row is defined)', () => {
    expect(() =>
      route('staffLimitedPerIp', () => ({
        method: 'GET',
        path: '/v1/test',
        group: 'test',
        summary: 'A staff route',
        auth: ['admin'],
        limitPerIp: true,
      })),
    ).toThrow(/limitPerIp/);
  });

  it('health and documents are not limited (they never touch the table)', async () => {
    for (let i = 0; i < 5; i += 1) expect((await from('192.0.2.9', 'GET', '/health')).status).toBe(200);
  });
});
