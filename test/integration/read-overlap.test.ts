import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ddb, ddbCalls } from '../../lib/db/client';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { withRateLimits } from '../fixtures/rate-limits';

/**
 * A GET's reads overlap its caller's gate (a token's credential check and bucket, a publishable
 * key's bucket): one round trip of latency, not two; a change still waits for the gate; a refusal
 * still wins (docs/decisions/0014). Order is read from when calls are sent and answered, not from timing:
 * every call a request starts before its first answer is in flight together, as an answer needs
 * the event loop's next turn.
 */
let practice: TestPractice;
let clientId: string;
// No bucket refills while a test runs (each test has its own credential).
withRateLimits({ RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '3' }, { RATE_LIMIT_RPS: '0' });
beforeAll(async () => {
  practice = await makePractice();
  clientId = (
    await call('POST', '/v1/clients', { token: practice.adminToken, body: { first_name: 'Ada', last_name: 'Overlap' } })
  ).body.data.id;
});
afterEach(() => {
  ddbCalls.trace = undefined;
});

async function traced<T>(work: () => Promise<T>) {
  ddbCalls.reset();
  ddbCalls.trace = [];
  const result = await work();
  const trace = ddbCalls.trace;
  ddbCalls.trace = undefined;
  return { result, trace, calls: Object.fromEntries(ddbCalls.counts) };
}

describe('reads overlap the gate', () => {
  it("a staff GET's read is sent before its bucket's write is answered, and answers as before", async () => {
    const token = await practice.tokenForRole('analyst');
    expect((await call('GET', `/v1/clients/${clientId}`, { token })).status).toBe(200);
    const { result, trace } = await traced(() => call('GET', `/v1/clients/${clientId}`, { token }));
    expect(result.status).toBe(200);
    expect(result.body.data.id).toBe(clientId);
    expect(result.headers['ratelimit-remaining']).toBe('1');
    expect(trace.slice(0, 2).sort()).toEqual(['GetItemCommand sent', 'UpdateItemCommand sent']);
    expect(trace).toHaveLength(4);
  });

  it("a publishable key's GET: once the key is known, its read goes out with the visitor's bucket write", async () => {
    // Each test's admin calls take from a bucket of their own (a burst of 3 here).
    const token = await practice.tokenForRole('admin');
    const key = (
      await call('POST', '/v1/publishable-keys', {
        token,
        body: { name: 'Site', allowed_origins: ['https://spa.example'] },
      })
    ).body.data.key;
    expect((await call('PATCH', '/v1/practice', { token, body: { online_booking: { enabled: true } } })).status).toBe(
      200,
    );
    const headers = { 'x-publishable-key': key, origin: 'https://spa.example' };
    expect((await call('GET', '/v1/public/services', { headers })).status).toBe(200);
    const { result, trace } = await traced(() => call('GET', '/v1/public/services', { headers }));
    expect(result.status).toBe(200);
    expect(result.headers['access-control-allow-origin']).toBe('https://spa.example');
    // The key's lookup is cached: the visitor's bucket on the key and the read go out together...
    expect(trace.slice(0, 2).sort()).toEqual(['QueryCommand sent', 'UpdateItemCommand sent']);
    // ...and the key's overall bucket only once the visitor's gave a token.
    expect(trace.filter((entry) => entry.startsWith('UpdateItemCommand'))).toEqual([
      'UpdateItemCommand sent',
      'UpdateItemCommand answered',
      'UpdateItemCommand sent',
      'UpdateItemCommand answered',
    ]);
  });

  it('a change waits for the gate: its first call is sent after the bucket answers', async () => {
    const token = await practice.tokenForRole('manager');
    // Its function's own first call (each function's access cache is its own, as its containers are).
    expect((await call('PATCH', `/v1/clients/${clientId}`, { token, body: { notes: 'first' } })).status).toBe(200);
    const { result, trace } = await traced(() =>
      call('PATCH', `/v1/clients/${clientId}`, { token, body: { notes: 'waited' } }),
    );
    expect(result.status).toBe(200);
    expect(trace.slice(0, 2)).toEqual(['UpdateItemCommand sent', 'UpdateItemCommand answered']);
    expect(trace.length).toBeGreaterThan(2);
  });

  it('a refused caller gets the refusal and nothing read: a revoked credential (401), even with a bad query', async () => {
    const admin = await practice.tokenForRole('admin');
    const created = await call('POST', '/v1/credentials', {
      token: admin,
      body: { name: 'Soon revoked', role: 'manager' },
    });
    const token = (
      await call('POST', '/v1/auth/token', {
        body: { client_id: created.body.data.client_id, client_secret: created.body.data.client_secret },
      })
    ).body.access_token;
    expect((await call('GET', `/v1/clients/${clientId}`, { token })).status).toBe(200);
    expect((await call('DELETE', `/v1/credentials/${created.body.data.client_id}`, { token: admin })).status).toBe(200);
    const { result, trace } = await traced(() => call('GET', `/v1/clients/${clientId}`, { token }));
    expect(result.status).toBe(401);
    expect(result.body.error.code).toBe('UNAUTHORIZED');
    expect(JSON.stringify(result.body)).not.toContain('Overlap');
    // The read did overlap the credential check, in its very call (the practice, the credential and
    // the client: lib/db/key-reads.ts); its answer was dropped.
    expect(trace).toContain('BatchGetItemCommand sent (3 keys)');
    expect(trace.filter((entry) => entry.startsWith('GetItemCommand'))).toEqual([]);
    // The caller is refused before its query is judged, as when nothing overlaps.
    const badQuery = await call('GET', '/v1/clients?no_such_filter=1', { token });
    expect(badQuery.status).toBe(401);
  });

  it('a caller whose bucket this container saw drained reads nothing: 429 with no call at all', async () => {
    const token = await practice.tokenForRole('analyst');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call('GET', `/v1/clients/${clientId}`, { token })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const { result, calls } = await traced(() => call('GET', `/v1/clients/${clientId}`, { token }));
    expect(result.status).toBe(429);
    expect(result.headers['retry-after']).toBeTruthy();
    expect(calls).toEqual({});
  });

  it("the container knows the bucket drained whatever order the takes' answers come back in", async () => {
    const token = await practice.tokenForRole('analyst');
    // The first take's answer (the bucket's oldest state) is held back until the others are in.
    let taken!: () => void;
    const firstTaken = new Promise<void>((resolve) => (taken = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: { pk?: string } }).Key;
        if (!holding || context.commandName !== 'UpdateItemCommand' || !key?.pk?.endsWith('#RATE_LIMIT'))
          return next(args);
        holding = false;
        const answer = await next(args);
        taken();
        await released;
        return answer;
      },
      { step: 'initialize', name: 'holdFirstTake' },
    );
    try {
      const first = call('GET', `/v1/clients/${clientId}`, { token });
      await firstTaken;
      const others = await Promise.all(
        Array.from({ length: 3 }, () => call('GET', `/v1/clients/${clientId}`, { token })),
      );
      release();
      expect([(await first).status, ...others.map((answer) => answer.status)].sort()).toEqual([200, 200, 200, 429]);
    } finally {
      ddb().middlewareStack.remove('holdFirstTake');
    }
    const { result, calls } = await traced(() => call('GET', `/v1/clients/${clientId}`, { token }));
    expect(result.status).toBe(429);
    expect(calls).toEqual({});
  });

  it('a role the route refuses reads nothing: 403, its audit entry the only write beside the bucket', async () => {
    const token = await practice.tokenForRole('analyst');
    // The function's access check, cached by its first call (each function's cache is its own).
    expect((await call('GET', '/v1/webhooks', { token })).status).toBe(403);
    const { result, calls } = await traced(() => call('GET', '/v1/webhooks', { token }));
    expect(result.status).toBe(403);
    // The bucket's write and the denial's audit entry; no read of webhooks.
    expect(calls).toEqual({ UpdateItemCommand: 1, PutItemCommand: 1 });
  });
});
