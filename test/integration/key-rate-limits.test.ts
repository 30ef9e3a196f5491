import { request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../infra/local/router';
import { updatePublishableKey } from '../../lib/db/publishable-keys';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { counted } from '../fixtures/ddb-calls';
import { startLocalApi, type LocalApi } from '../fixtures/local-api';
import { withRateLimits } from '../fixtures/rate-limits';

/**
 * A publishable key's rate limits (API reference, online booking): each client IP has its own
 * budget on the key, and the key an overall one far above any one visitor's (issue 34: eight
 * addresses each under their own limit made a bystander's requests answer 429, as every visitor
 * shared one bucket). With the deployed defaults, not the suite's raised ones: RATE_LIMIT_RPS and
 * RATE_LIMIT_BURST (20, 40) were the shared bucket's.
 */
const NAMES = [
  'RATE_LIMIT_RPS',
  'RATE_LIMIT_BURST',
  'RATE_LIMIT_IP_RPS',
  'RATE_LIMIT_IP_BURST',
  'RATE_LIMIT_KEY_IP_RPS',
  'RATE_LIMIT_KEY_IP_BURST',
  'RATE_LIMIT_KEY_RPS',
  'RATE_LIMIT_KEY_BURST',
];
const SUITE = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
withRateLimits(Object.fromEntries(NAMES.map((name) => [name, undefined])), SUITE);

const CONTRACT_DEFAULTS = {
  per_client_ip: { requests_per_second: 10, burst: 20 },
  overall: { requests_per_second: 200, burst: 400 },
};

let practice: TestPractice;
let api: LocalApi;
beforeAll(async () => {
  practice = await makePractice();
  expect(
    (await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { online_booking: { enabled: true } } }))
      .status,
  ).toBe(200);
  api = await startLocalApi();
});
afterAll(() => api.close());
afterEach(() => vi.useRealTimers());

async function newKey(rateLimits?: unknown) {
  const created = await call('POST', '/v1/publishable-keys', {
    token: practice.adminToken,
    body: {
      name: 'Website',
      allowed_origins: ['https://spa.example'],
      ...(rateLimits ? { rate_limits: rateLimits } : {}),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: string; key: string; version: number; rate_limits: typeof CONTRACT_DEFAULTS };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** GET over the local HTTP server from a loopback address of our choosing: its sourceIp is the socket's peer. */
function getFrom(localAddress: string, path: string, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      new URL(path, api.url),
      { headers: { 'x-publishable-key': key }, localAddress, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) }),
        );
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

/** The same through the router in-process (sourceIp as API Gateway gives it), for the many calls. */
async function askFrom(sourceIp: string, key: string): Promise<Answer> {
  const response = await dispatch({
    method: 'GET',
    url: '/v1/public/practice',
    sourceIp,
    headers: { 'x-publishable-key': key },
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(response.body) };
}

const EIGHT_VISITORS = Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`);

describe("a few visitors cannot switch a practice's online booking off", () => {
  it('eight client IPs each under their own limit, together over the old shared bucket (40): a ninth IP answers 200, told its own budget', async () => {
    const { key, rate_limits } = await newKey();
    // Omitted: the contract's defaults.
    expect(rate_limits).toEqual(CONTRACT_DEFAULTS);
    const answers = await Promise.all(
      EIGHT_VISITORS.flatMap((address) =>
        Array.from({ length: 5 }, () => getFrom(address, '/v1/public/practice', key)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const bystander = await getFrom('127.0.0.10', '/v1/public/practice', key);
    expect(bystander.status).toBe(200);
    // Each visitor spent 5 of its own 20.
    expect(Math.min(...answers.map((answer) => Number(answer.headers['ratelimit-remaining'])))).toBe(15);
    expect(bystander.headers['ratelimit-limit']).toBe('20');
    expect(bystander.headers['ratelimit-remaining']).toBe('19');
  });

  it('the same traffic on a key whose budgets are the old shared bucket (20/s, burst 40): the overall budget refuses the ninth IP, 429 with Retry-After saying so', async () => {
    const old = { requests_per_second: 20, burst: 40 };
    const { key } = await newKey({ per_client_ip: old, overall: old });
    const answers = await Promise.all(
      EIGHT_VISITORS.flatMap((address) =>
        Array.from({ length: 5 }, () => getFrom(address, '/v1/public/practice', key)),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
    const bystander = await getFrom('127.0.0.10', '/v1/public/practice', key);
    expect(bystander.status).toBe(429);
    expect(bystander.body.error.code).toBe('RATE_LIMITED');
    expect(bystander.body.error.message).toMatch(/publishable key overall/);
    expect(Number(bystander.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The headers stay the visitor's own budget: it had all of it.
    expect(bystander.headers['ratelimit-limit']).toBe('40');
    expect(bystander.headers['ratelimit-remaining']).toBe('39');
  });
});

describe('each client IP its own budget, the key an overall one', () => {
  it('one IP over its budget gets 429 with Retry-After (exactly its burst passes, in parallel too) while another IP is fine', async () => {
    const { key } = await newKey({ per_client_ip: { requests_per_second: 1, burst: 3 } });
    const burst = await Promise.all(Array.from({ length: 10 }, () => askFrom('198.51.100.1', key)));
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(3);
    const refused = burst.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(7);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(answer.body.error.message).toMatch(/client address on this publishable key/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.headers['ratelimit-limit']).toBe('3');
      expect(answer.headers['ratelimit-remaining']).toBe('0');
    }
    const other = await askFrom('198.51.100.2', key);
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('2');
    // A refused visitor this container saw drained costs nothing: no read, no write.
    const again = await counted(() => askFrom('198.51.100.1', key));
    expect(again.result.status).toBe(429);
    expect(again.calls).toEqual({});
  });

  it("the key's overall budget refuses once exceeded; a visitor refused by its own budget never spends it", async () => {
    const { key } = await newKey({
      per_client_ip: { requests_per_second: 1, burst: 3 },
      overall: { requests_per_second: 1, burst: 6 },
    });
    // 10 from one address: 3 pass, 7 refused by that address's budget, none of them taking from the key's.
    expect(
      (await Promise.all(Array.from({ length: 10 }, () => askFrom('198.51.100.3', key)))).filter(
        (answer) => answer.status === 200,
      ),
    ).toHaveLength(3);
    for (let i = 0; i < 3; i += 1) expect((await askFrom('198.51.100.4', key)).status).toBe(200);
    const over = await askFrom('198.51.100.5', key);
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/publishable key overall/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});

describe('per-key settings in the admin API', () => {
  it('POST takes any part of rate_limits (the rest: defaults); PATCH changes them (If-Match honoured) and they apply at once on this container', async () => {
    const made = await newKey({ per_client_ip: { burst: 5 } });
    expect(made.rate_limits).toEqual({
      per_client_ip: { requests_per_second: 10, burst: 5 },
      overall: CONTRACT_DEFAULTS.overall,
    });
    expect(made.version).toBe(1);
    const url = `/v1/publishable-keys/${made.id}`;
    const patched = await call('PATCH', url, {
      token: practice.adminToken,
      headers: { 'if-match': '"1"' },
      body: { rate_limits: { per_client_ip: { requests_per_second: 1, burst: 2 } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.etag).toBe('"2"');
    expect(patched.body.data).toMatchObject({
      id: made.id,
      key: made.key,
      version: 2,
      rate_limits: { per_client_ip: { requests_per_second: 1, burst: 2 }, overall: CONTRACT_DEFAULTS.overall },
    });
    const stale = await call('PATCH', url, {
      token: practice.adminToken,
      headers: { 'if-match': '"1"' },
      body: { name: 'Renamed' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    expect(
      (await call('GET', '/v1/publishable-keys?limit=100', { token: practice.adminToken })).body.data.find(
        (k: { id: string }) => k.id === made.id,
      ).rate_limits.per_client_ip,
    ).toEqual({ requests_per_second: 1, burst: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await askFrom('203.0.113.1', made.key)).status);
    expect(statuses).toEqual([200, 200, 429]);
    // name and allowed_origins change too; an unknown key is 404.
    const renamed = await call('PATCH', url, {
      token: practice.adminToken,
      body: { name: 'Renamed', allowed_origins: ['https://other.example'] },
    });
    expect(renamed.body.data).toMatchObject({
      name: 'Renamed',
      allowed_origins: ['https://other.example'],
      version: 3,
    });
    const missing = await call('PATCH', '/v1/publishable-keys/6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b', {
      token: practice.adminToken,
      body: { name: 'X' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('PUBLISHABLE_KEY_NOT_FOUND');
  });

  it.each([
    [{ per_client_ip: { requests_per_second: 0 } }, 'rate_limits.per_client_ip.requests_per_second'],
    [{ per_client_ip: { requests_per_second: 1.5 } }, 'rate_limits.per_client_ip.requests_per_second'],
    [{ overall: { burst: 100_001 } }, 'rate_limits.overall.burst'],
    [{ overall: { requests_per_second: 10_001 } }, 'rate_limits.overall.requests_per_second'],
    [{ per_client_ip: { burst: '20' } }, 'rate_limits.per_client_ip.burst'],
    [{ per_ip: { burst: 20 } }, 'rate_limits.per_ip'],
    // A client IP's budget above the key's overall one, given or as merged with what the key has.
    [{ per_client_ip: { burst: 401 } }, 'rate_limits.per_client_ip.burst'],
    [{ overall: { requests_per_second: 5 } }, 'rate_limits.per_client_ip.requests_per_second'],
  ])('refuses rate_limits %j on create and on PATCH: 400 VALIDATION_ERROR at %s', async (rateLimits, path) => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: practice.adminToken,
      body: { name: 'Bad', allowed_origins: ['https://spa.example'], rate_limits: rateLimits },
    });
    const { id } = await newKey();
    const patched = await call('PATCH', `/v1/publishable-keys/${id}`, {
      token: practice.adminToken,
      body: { rate_limits: rateLimits },
    });
    for (const answer of [created, patched]) {
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
  });

  it('only admins: a manager is 403 FORBIDDEN on create and PATCH', async () => {
    const { id } = await newKey();
    const manager = await practice.tokenForRole('manager');
    const patched = await call('PATCH', `/v1/publishable-keys/${id}`, {
      token: manager,
      body: { rate_limits: { overall: { burst: 10 } } },
    });
    expect(patched.status).toBe(403);
    expect(patched.body.error.code).toBe('FORBIDDEN');
    expect(
      (
        await call('POST', '/v1/publishable-keys', {
          token: manager,
          body: { name: 'X', allowed_origins: ['https://spa.example'] },
        })
      ).status,
    ).toBe(403);
  });

  it('a change made by another container applies here within 60 s (the key lookup cache holds at most AUTH_CACHE_TTL_MS)', async () => {
    const made = await newKey({ per_client_ip: { requests_per_second: 1, burst: 2 } });
    expect((await askFrom('203.0.113.2', made.key)).status).toBe(200);
    // Raised behind this container's back: its cached lookup still has the old budget...
    const raised = await updatePublishableKey(
      practice.medspaId,
      made.id,
      { rate_limits: { ...CONTRACT_DEFAULTS, per_client_ip: { requests_per_second: 1, burst: 10 } } },
      { expectedVersion: 1, now: new Date().toISOString() },
    );
    expect(raised.ok).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    vi.setSystemTime(Date.now() + 59_000);
    expect((await askFrom('203.0.113.2', made.key)).status).toBe(200);
    expect((await askFrom('203.0.113.2', made.key)).status).toBe(429);
    // ...for no more than 60 s (the request clock stands still: no token came back meanwhile).
    vi.setSystemTime(Date.now() + 1_001);
    const after = await askFrom('203.0.113.2', made.key);
    expect(after.status).toBe(200);
    expect(after.headers['ratelimit-limit']).toBe('10');
  });
});
