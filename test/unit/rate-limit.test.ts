import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultKeyRateLimits, resetConfig, type Config } from '../../lib/config';
import {
  changedRateLimits,
  CLOCK_SKEW_MS,
  givesToken,
  intervalOf,
  KEY_RATE_LIMIT_DEFAULTS,
  newerTat,
  planTake,
  rateLimitProblems,
  taken,
  type BucketPolicy,
} from '../../lib/domain/rate-limit';

/**
 * The bucket kept as one `tat` (lib/domain/rate-limit.ts) against the token bucket it stands for:
 * `burst` tokens, `rps` back each second, one a request.
 */
const policy: BucketPolicy = { rps: 2, burst: 5 };

/** Applies a take as the table would (idle: now + interval; busy: tat + interval). */
function apply(tat: number | null, now: number, p: BucketPolicy) {
  const plan = planTake(tat, now, p);
  if (plan.kind === 'refuse') return { tat, decision: plan.decision };
  const next = plan.kind === 'idle' ? now + intervalOf(p) : tat! + intervalOf(p);
  return { tat: next, decision: taken(next, now, p) };
}

describe('rate-limit bucket (GCRA)', () => {
  it('a full bucket gives burst tokens at one instant, remaining counting down, then refuses with Retry-After', () => {
    let tat: number | null = null;
    const remaining: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const step = apply(tat, 0, policy);
      expect(step.decision.allowed).toBe(true);
      remaining.push(step.decision.remaining);
      tat = step.tat;
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const refusal = apply(tat, 0, policy).decision;
    expect(refusal).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 3, retryAfterSeconds: 1 });
    // One token back after one interval (500 ms), the bucket full after five.
    expect(givesToken(tat, 499, policy)).toBe(false);
    expect(givesToken(tat, 500, policy)).toBe(true);
    expect(apply(tat, 2_500, policy)).toMatchObject({ tat: 3_000, decision: { remaining: 4 } });
  });

  it('a bucket written by a clock far ahead (or before the clock went back) reads as full, not drained for that long', () => {
    const drained = 2_500; // five tokens taken at 0
    expect(planTake(drained, 0, policy).kind).toBe('refuse');
    // Within the skew a clock may run ahead, still drained; beyond it, full.
    expect(planTake(drained + CLOCK_SKEW_MS, 0, policy).kind).toBe('refuse');
    expect(planTake(14 * 86_400_000, 0, policy).kind).toBe('idle');
  });

  it("parallel requests' answers, arriving in any order, leave the newest sighting known", () => {
    // Three takes at 0 answered 500, 1000, 1500 (policy: 2 rps); the first answer arrives last.
    const sightings = [1_500, 1_000, 500];
    const known = sightings.reduce<number | null>((prior, tat) => newerTat(prior, tat, 0, policy), null);
    expect(known).toBe(1_500);
    // A sighting no longer busy (past, or from a clock far ahead) gives way to any newer write.
    expect(newerTat(1_500, 2_500, 2_000, policy)).toBe(2_500);
    expect(newerTat(14 * 86_400_000, 500, 0, policy)).toBe(500);
  });

  it('agrees with a token bucket on any sequence of requests', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 80 }),
        (rps, burst, gaps) => {
          const p = { rps, burst };
          let tat: number | null = null;
          let tokens = burst;
          let at = 0;
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            tokens = Math.min(burst, tokens + ((now - at) / 1000) * rps);
            at = now;
            const bucketAllows = tokens >= 1 - 1e-9;
            if (bucketAllows) tokens -= 1;
            const step = apply(tat, now, p);
            expect(step.decision.allowed).toBe(bucketAllows);
            if (bucketAllows) expect(step.decision.remaining).toBe(Math.floor(tokens + 1e-9));
            tat = step.tat;
          }
        },
      ),
    );
  });
});

describe("a publishable key's rate limits", () => {
  it("the defaults are the contract's (10/s burst 20 per client IP, 200/s burst 400 overall), and configured so when the environment names none", () => {
    expect(KEY_RATE_LIMIT_DEFAULTS).toEqual({
      per_client_ip: { requests_per_second: 10, burst: 20 },
      overall: { requests_per_second: 200, burst: 400 },
    });
    // The test run raises them (vitest.config.ts); a deployment's environment does not.
    const names = ['RATE_LIMIT_KEY_IP_RPS', 'RATE_LIMIT_KEY_IP_BURST', 'RATE_LIMIT_KEY_RPS', 'RATE_LIMIT_KEY_BURST'];
    const saved = names.map((name) => process.env[name]);
    try {
      for (const name of names) delete process.env[name];
      resetConfig();
      expect(defaultKeyRateLimits()).toEqual(KEY_RATE_LIMIT_DEFAULTS);
    } finally {
      names.forEach((name, index) => {
        process.env[name] = saved[index];
      });
      resetConfig();
    }
    expect(
      defaultKeyRateLimits({
        RATE_LIMIT_KEY_IP_RPS: 1,
        RATE_LIMIT_KEY_IP_BURST: 2,
        RATE_LIMIT_KEY_RPS: 3,
        RATE_LIMIT_KEY_BURST: 4,
      } as Config),
    ).toEqual({
      per_client_ip: { requests_per_second: 1, burst: 2 },
      overall: { requests_per_second: 3, burst: 4 },
    });
  });

  it('a change is merged field by field; a client IP budget above the overall one is a problem at each field', () => {
    const merged = changedRateLimits(KEY_RATE_LIMIT_DEFAULTS, { overall: { burst: 50 } });
    expect(merged).toEqual({
      per_client_ip: { requests_per_second: 10, burst: 20 },
      overall: { requests_per_second: 200, burst: 50 },
    });
    expect(rateLimitProblems(merged)).toEqual([]);
    expect(
      rateLimitProblems(
        changedRateLimits(KEY_RATE_LIMIT_DEFAULTS, { per_client_ip: { requests_per_second: 300, burst: 500 } }),
      ).map((problem) => problem.path),
    ).toEqual(['rate_limits.per_client_ip.requests_per_second', 'rate_limits.per_client_ip.burst']);
    // Equal is allowed: one visitor may use the whole key.
    expect(
      rateLimitProblems({
        per_client_ip: { requests_per_second: 5, burst: 5 },
        overall: { requests_per_second: 5, burst: 5 },
      }),
    ).toEqual([]);
  });
});
