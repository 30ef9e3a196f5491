import { beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { ddbCalls } from '../../lib/db/client';
import { forgetRateLimits } from '../../lib/db/rate-limits';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { withRateLimits } from '../fixtures/rate-limits';

let practice: TestPractice;
withRateLimits({ RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '5' }, { RATE_LIMIT_RPS: '0' });
beforeAll(async () => {
  practice = await makePractice();
});

describe('per-credential rate limits (token bucket in the table)', () => {
  it('a burst over the limit gets 429 RATE_LIMITED with Retry-After; RateLimit-* on every response', async () => {
    const token = await practice.tokenForRole('analyst');
    const answers = await Promise.all(Array.from({ length: 12 }, () => call('GET', '/v1/practice', { token })));
    const ok = answers.filter((answer) => answer.status === 200);
    const limited = answers.filter((answer) => answer.status === 429);
    // A 5-token burst and no time passing: exactly 5 pass, whatever the concurrency.
    expect(ok.length).toBe(5);
    expect(limited.length).toBe(7);
    for (const answer of answers) {
      expect(answer.headers['ratelimit-limit']).toBe('5');
      expect(Number(answer.headers['ratelimit-remaining'])).toBeGreaterThanOrEqual(0);
      expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(0);
    }
    for (const answer of limited) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.headers['x-request-id']).toBeTruthy();
    }
  });

  it('under the limit never; each credential has its own bucket; the state is shared through the table', async () => {
    const a = await practice.tokenForRole('analyst');
    const b = await practice.tokenForRole('analyst');
    for (let i = 0; i < 5; i += 1) expect((await call('GET', '/v1/practice', { token: a })).status).toBe(200);
    // A fresh container (no memory of the bucket) reads the table's state: still exhausted.
    forgetRateLimits();
    expect((await call('GET', '/v1/practice', { token: a })).status).toBe(429);
    expect((await call('GET', '/v1/practice', { token: b })).status).toBe(200);
    // Time refills it: 2 tokens a second.
    setClock(new Date(Date.now() + 1_000));
    expect((await call('GET', '/v1/practice', { token: a })).status).toBe(200);
  });

  it('a fresh container on a bucket idle long enough to be full takes its token in one write', async () => {
    const token = await practice.tokenForRole('analyst');
    for (let i = 0; i < 5; i += 1) expect((await call('GET', '/v1/practice', { token })).status).toBe(200);
    // 5 tokens at 2 a second: full again after 2.5 s, whatever state the table holds.
    setClock(new Date(Date.now() + 2_500));
    forgetRateLimits();
    ddbCalls.reset();
    const answer = await call('GET', '/v1/practice', { token });
    expect(answer.status).toBe(200);
    expect(answer.headers['ratelimit-remaining']).toBe('4');
    expect(ddbCalls.counts.get('UpdateItemCommand')).toBe(1);
    // And the container now knows the stored version: its next request is one write too.
    ddbCalls.reset();
    expect((await call('GET', '/v1/practice', { token })).headers['ratelimit-remaining']).toBe('3');
    expect(ddbCalls.counts.get('UpdateItemCommand')).toBe(1);
  });

  it('public routes are not limited per credential', async () => {
    for (let i = 0; i < 8; i += 1) expect((await call('GET', '/health')).status).toBe(200);
  });
});
