import { config } from '../config';
import { expectsToken, takeToken } from '../db/rate-limits';
import type { BucketPolicy } from '../domain/rate-limit';
import { ipRateLimitKey, rateLimitKey } from '../db/keys';
import type { Key } from '../db/keys';
import { AppError } from '../errors';
import { clientIpOf } from './client-ip';
import { isLimitedPerIp, isRateLimited } from './route';
import type { ApiMiddleware, ApiMiddyRequest, RequestState } from './types';

const addHeaders = async (request: ApiMiddyRequest) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...request.internal.extraHeaders };
};

/** Takes a token from one bucket; the answer's RateLimit-* headers are the last bucket's taken. */
async function takeFrom(state: RequestState, bucket: Key, policy: BucketPolicy, what: string) {
  const decision = await takeToken(bucket, state.now.getTime(), policy);
  state.extraHeaders['ratelimit-limit'] = String(policy.burst);
  state.extraHeaders['ratelimit-remaining'] = String(decision.remaining);
  state.extraHeaders['ratelimit-reset'] = String(decision.resetSeconds);
  if (!decision.allowed) {
    throw new AppError('RATE_LIMITED', `Too many requests for this ${what}; retry after ${decision.retryAfterSeconds} s`, {
      headers: { 'retry-after': String(decision.retryAfterSeconds) },
    });
  }
}

/**
 * Token buckets in the table, so limits hold across Lambda containers (0 rps = off): per credential
 * (RATE_LIMIT_RPS, RATE_LIMIT_BURST; a publishable key is one), taken once the caller is known, in
 * parallel with the credential check (lib/http/auth.ts); and per client IP
 * (RATE_LIMIT_IP_RPS, RATE_LIMIT_IP_BURST) for public-booking calls, in parallel with the key's
 * lookup, and the token exchange, first. Every answer to a limited route carries
 * RateLimit-Limit/-Remaining/-Reset; a refusal is 429 RATE_LIMITED with Retry-After.
 */
export const rateLimit = (): ApiMiddleware => ({
  before: async (request) => {
    const settings = config();
    const state = request.internal;
    const { route } = state;
    const sourceIp = clientIpOf(request.event);
    if (settings.RATE_LIMIT_IP_RPS > 0 && sourceIp && isLimitedPerIp(route)) {
      const byIp = () => takeFrom(state, ipRateLimitKey(sourceIp), { rps: settings.RATE_LIMIT_IP_RPS, burst: settings.RATE_LIMIT_IP_BURST }, 'client address');
      if (route.auth === 'public') await byIp();
      else state.beforeIdentified.push(byIp);
    }
    if (settings.RATE_LIMIT_RPS > 0 && isRateLimited(route)) {
      const policy = { rps: settings.RATE_LIMIT_RPS, burst: settings.RATE_LIMIT_BURST };
      state.onAuthenticated.push((caller) => takeFrom(state, rateLimitKey(caller.medspaId, caller.clientId), policy, 'credential'));
      // A caller this container expects to refuse reads nothing: a flood stays free of reads.
      state.holdReads.push((caller) => !expectsToken(rateLimitKey(caller.medspaId, caller.clientId), state.now.getTime(), policy));
    }
  },
  after: addHeaders,
  onError: addHeaders,
});
