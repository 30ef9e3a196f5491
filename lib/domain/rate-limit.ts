/**
 * A token bucket, as pure maths, kept the GCRA way: `rps` tokens a second refill it up to
 * `burst`; each request takes one. The state is one number, the bucket's "theoretical arrival
 * time" (`tat`, epoch ms): the moment it would be full again. A request at `now` moves it to
 * `max(tat, now) + interval`, allowed while that stays within `burst` intervals of `now`. Taking a
 * token from a busy bucket is then an increment (`tat + interval`, under a condition on `tat`)
 * that parallel requests apply in any order: none of them has to see another's write first.
 */
export interface BucketPolicy {
  rps: number;
  burst: number;
}

export interface Decision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until one token is back (Retry-After), when refused. */
  retryAfterSeconds: number;
}

/** Milliseconds one token takes to come back. */
export const intervalOf = (policy: BucketPolicy) => 1000 / policy.rps;

/** The latest stored `tat` a request at `now` may still take a token from. */
export const latestTatAllowed = (now: number, policy: BucketPolicy) => now + (policy.burst - 1) * intervalOf(policy);

/**
 * How far ahead of this clock another container's may run. A `tat` is at most `burst` intervals
 * ahead of its writer's clock; one beyond that plus this came from a clock far ahead (or one that
 * went back: tests move the request clock): it is read as a full bucket, not as one drained for
 * days.
 */
export const CLOCK_SKEW_MS = 60_000;

/** Beyond this, a stored `tat` is read as a full bucket's (CLOCK_SKEW_MS). */
export const tatHorizon = (now: number, policy: BucketPolicy) =>
  now + policy.burst * intervalOf(policy) + CLOCK_SKEW_MS;

/**
 * How to take a token from a bucket last seen at `tat` (null: never seen, or full long ago):
 * - `idle`: the bucket is full; store `now + interval`, on condition it is still idle (`tat <= now`,
 *   or beyond the horizon);
 * - `busy`: add one interval to the stored `tat`, on condition it is still between now and `latest`;
 * - `refuse`: the bucket is drained.
 */
export type Take =
  | { kind: 'idle'; horizon: number }
  | { kind: 'busy'; latest: number }
  | { kind: 'refuse'; decision: Decision };

export function planTake(tat: number | null, now: number, policy: BucketPolicy): Take {
  const horizon = tatHorizon(now, policy);
  if (tat === null || tat <= now || tat > horizon) return { kind: 'idle', horizon };
  const latest = latestTatAllowed(now, policy);
  return tat <= latest ? { kind: 'busy', latest } : { kind: 'refuse', decision: refused(tat, now, policy) };
}

/**
 * Which of two sightings of a bucket's `tat` is the newer. Parallel requests' answers arrive in
 * any order; while a bucket is busy its `tat` only grows, so the larger sighting is the later one.
 * A prior sighting that no longer reads as busy (past, or beyond the horizon) gives way to any.
 */
export function newerTat(prior: number | null, observed: number, now: number, policy: BucketPolicy): number {
  return prior !== null && prior > observed && prior <= tatHorizon(now, policy) ? prior : observed;
}

/** Whether a bucket last seen at `tat` gives a token at `now` (no write). */
export const givesToken = (tat: number | null, now: number, policy: BucketPolicy) =>
  planTake(tat, now, policy).kind !== 'refuse';

/** The answer to a request whose token was taken, the bucket now at `tat`. */
export function taken(tat: number, now: number, policy: BucketPolicy): Decision {
  const interval = intervalOf(policy);
  return {
    allowed: true,
    // The epsilon keeps a float's 3.9999999 from costing a whole token.
    remaining: Math.max(0, Math.floor((now + policy.burst * interval - tat) / interval + 1e-9)),
    resetSeconds: Math.max(0, Math.ceil((tat - now) / 1000)),
    retryAfterSeconds: 0,
  };
}

/** The answer to a request refused by a bucket at `tat`: a token is back once `tat` is within `latestTatAllowed`. */
export function refused(tat: number, now: number, policy: BucketPolicy): Decision {
  return {
    allowed: false,
    remaining: 0,
    resetSeconds: Math.max(0, Math.ceil((tat - now) / 1000)),
    retryAfterSeconds: Math.max(1, Math.ceil((tat - latestTatAllowed(now, policy)) / 1000)),
  };
}

/** One budget of a publishable key, as the API names it (API reference, online booking). */
export interface RateBudget {
  requests_per_second: number;
  burst: number;
}

/**
 * A publishable key's rate limits: each client IP's own budget, and the key's overall one, far
 * above any one visitor's, so a few visitors never use up a practice's online booking.
 */
export interface KeyRateLimits {
  per_client_ip: RateBudget;
  overall: RateBudget;
}

/** The contract's defaults (API reference, online booking); a deployment's are RATE_LIMIT_KEY_* (lib/config.ts). */
export const KEY_RATE_LIMIT_DEFAULTS: KeyRateLimits = {
  per_client_ip: { requests_per_second: 10, burst: 20 },
  overall: { requests_per_second: 200, burst: 400 },
};

/** The most either budget may be set to: far above any booking site, low enough that a typo is refused. */
export const KEY_RATE_LIMIT_MAX: RateBudget = { requests_per_second: 10_000, burst: 100_000 };

/** What a create or PATCH may give: any budget, any field of it; the rest stays. */
export type KeyRateLimitsChange = { [B in keyof KeyRateLimits]?: Partial<RateBudget> };

export const policyOf = (budget: RateBudget): BucketPolicy => ({
  rps: budget.requests_per_second,
  burst: budget.burst,
});

/** `change` over `base`, field by field. */
export const changedRateLimits = (base: KeyRateLimits, change: KeyRateLimitsChange | undefined): KeyRateLimits => ({
  per_client_ip: { ...base.per_client_ip, ...change?.per_client_ip },
  overall: { ...base.overall, ...change?.overall },
});

/** Where one client IP's budget would be above the key's overall one (none when the limits are sound). */
export function rateLimitProblems(limits: KeyRateLimits): { path: string; message: string }[] {
  return (['requests_per_second', 'burst'] as const)
    .filter((field) => limits.per_client_ip[field] > limits.overall[field])
    .map((field) => ({
      path: `rate_limits.per_client_ip.${field}`,
      message: `must not be above overall.${field} (${limits.overall[field]})`,
    }));
}
