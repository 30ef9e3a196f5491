import { beforeAll, describe, expect, it } from 'vitest';
import { ddbCalls } from '../../lib/db/client';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { withRateLimits } from '../fixtures/rate-limits';

/**
 * A burst of parallel requests of one credential, larger than any bound on rounds of lost races:
 * each take is an increment judged on the sum before it (lib/db/rate-limits.ts), so exactly as
 * many pass as the bucket holds, none is refused while a token is left, and none costs more than
 * two writes.
 */
let practice: TestPractice;
withRateLimits(
  { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '100' },
  { RATE_LIMIT_RPS: '1000', RATE_LIMIT_BURST: '1000000' },
);
beforeAll(async () => {
  practice = await makePractice();
});

describe('parallel requests of one credential', () => {
  it('150 at once on a 100-token bucket: exactly 100 pass, each told a different count left, 50 get 429', async () => {
    const token = await practice.tokenForRole('analyst');
    ddbCalls.reset();
    const answers = await Promise.all(Array.from({ length: 150 }, () => call('GET', '/v1/practice', { token })));
    const passed = answers.filter((answer) => answer.status === 200);
    expect(passed.length).toBe(100);
    expect(answers.filter((answer) => answer.status === 429).length).toBe(50);
    expect(passed.map((answer) => Number(answer.headers['ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i),
    );
    // The first writes find the bucket idle; all but one of them then take by increment.
    expect(ddbCalls.counts.get('UpdateItemCommand')).toBeLessThanOrEqual(2 * 150);
  });
});
