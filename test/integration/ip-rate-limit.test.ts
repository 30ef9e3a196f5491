import { dispatch } from '../../infra/local/router';
import { beforeAll, describe, expect, it } from 'vitest';
import { route } from '../../lib/http/route';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { withRateLimits } from '../fixtures/rate-limits';

let practice: TestPractice;
let key: string;
beforeAll(async () => {
  practice = await makePractice();
  key = (await call('POST', '/v1/publishable-keys', { token: practice.adminToken, body: { name: 'Site', allowed_origins: ['https://spa.example'] } })).body.data.key;
  await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { online_booking: { enabled: true } } });
});
// After the set-up above, which exchanges a token (a per-IP limited call).
withRateLimits({ RATE_LIMIT_IP_RPS: '1', RATE_LIMIT_IP_BURST: '3' }, { RATE_LIMIT_IP_RPS: '1000', RATE_LIMIT_IP_BURST: '1000000' });

const from = async (sourceIp: string, method: string, url: string, headers: Record<string, string> = {}, body?: unknown) => {
  const response = await dispatch({ method, url, sourceIp, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, headers: response.headers, body: response.body ? JSON.parse(response.body) : undefined };
};

describe('rate limits per client IP', () => {
  it('the token exchange: a burst from one address gets 429 RATE_LIMITED with Retry-After, wrong secrets included; another address is not affected', async () => {
    const exchange = (ip: string, secret: string) => from(ip, 'POST', '/v1/auth/token', {}, { client_id: practice.clientId, client_secret: secret });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => exchange('203.0.113.7', i % 2 ? practice.clientSecret : 'wrong')));
    expect(answers.filter((answer) => answer.status === 429).length).toBe(3);
    for (const answer of answers) expect(answer.headers['ratelimit-limit']).toBe('3');
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await exchange('203.0.113.8', practice.clientSecret)).status).toBe(200);
  });

  it('public calls: per client IP as well as per key (an unknown key from a flooding address is still counted)', async () => {
    const ask = (ip: string, withKey = key) => from(ip, 'GET', '/v1/public/practice', { 'x-publishable-key': withKey });
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await ask('198.51.100.1')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await ask('198.51.100.2')).status).toBe(200);
    const unknown = `pk_${practice.medspaId.replace(/-/g, '')}${'0'.repeat(32)}`;
    const flood = [];
    for (let i = 0; i < 4; i += 1) flood.push((await ask('198.51.100.3', unknown)).status);
    expect(flood).toEqual([401, 401, 401, 429]);
  });

  it('a flood of refused origins from one address: every call 403, but only those within its budget audited', async () => {
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await from('198.51.100.9', 'GET', '/v1/public/practice', { 'x-publishable-key': key, origin: 'https://evil.example' }));
    expect(answers.map((answer) => answer.body.error.code)).toEqual(Array.from({ length: 5 }, () => 'ORIGIN_NOT_ALLOWED'));
    const log = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    const audited = new Set(log.body.data.map((entry: { request_id: string }) => entry.request_id));
    expect(answers.map((answer) => audited.has(answer.body.error.request_id))).toEqual([true, true, true, false, false]);
  });

  it('a staff route cannot ask for a per-IP limit it would never take (refused where the row is defined)', () => {
    expect(() => route('staffLimitedPerIp', () => ({ method: 'GET', path: '/v1/test', group: 'test', summary: 'A staff route', auth: ['admin'], limitPerIp: true }))).toThrow(/limitPerIp/);
  });

  it('health and documents are not limited (they never touch the table)', async () => {
    for (let i = 0; i < 5; i += 1) expect((await from('192.0.2.9', 'GET', '/health')).status).toBe(200);
  });
});
