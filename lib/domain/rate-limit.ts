/**
 * A token bucket, as pure maths: `rps` tokens a second refill it up to `burst`; each request
 * takes one. State is the tokens left after the last request and when that was (epoch ms).
 */
export interface Bucket {
  tokens: number;
  at: number;
}

export interface BucketPolicy {
  rps: number;
  burst: number;
}

export interface Decision {
  allowed: boolean;
  /** The state to store (unchanged when refused). */
  next: Bucket;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Seconds until one token is back (Retry-After), when refused. */
  retryAfterSeconds: number;
}

export function take(bucket: Bucket | null, now: number, policy: BucketPolicy): Decision {
  const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
  const available = bucket ? Math.min(policy.burst, bucket.tokens + (elapsed / 1000) * policy.rps) : policy.burst;
  const allowed = available >= 1;
  const tokens = allowed ? available - 1 : available;
  return {
    allowed,
    next: { tokens, at: now },
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.ceil((policy.burst - tokens) / policy.rps),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / policy.rps)),
  };
}
