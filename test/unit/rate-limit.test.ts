import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_MS, givesToken, intervalOf, newerTat, planTake, taken, type BucketPolicy } from '../../lib/domain/rate-limit';

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
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 60 }), fc.array(fc.integer({ min: 0, max: 3_000 }), { maxLength: 80 }), (rps, burst, gaps) => {
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
      }),
    );
  });
});
