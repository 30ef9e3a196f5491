import { config } from '../config';
import { takeToken } from '../db/rate-limits';
import { AppError } from '../errors';
import { isRateLimited } from './route';
import type { ApiMiddleware, ApiMiddyRequest } from './types';

const addHeaders = async (request: ApiMiddyRequest) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...request.internal.extraHeaders };
};

/**
 * Per-credential token bucket (RATE_LIMIT_RPS, RATE_LIMIT_BURST; 0 rps = off), state in the table
 * so it holds across Lambda containers. The bucket is taken once the token is verified, in
 * parallel with the credential check (lib/http/auth.ts). Every answer to a limited route carries
 * RateLimit-Limit/-Remaining/-Reset; a refusal is 429 RATE_LIMITED with Retry-After.
 */
export const rateLimit = (): ApiMiddleware => ({
  before: async (request) => {
    const { RATE_LIMIT_RPS: rps, RATE_LIMIT_BURST: burst } = config();
    const state = request.internal;
    if (rps <= 0 || !isRateLimited(state.route)) return;
    state.onAuthenticated.push(async (caller) => {
      const decision = await takeToken(caller.medspaId, caller.clientId, state.now.getTime(), { rps, burst });
      state.extraHeaders['ratelimit-limit'] = String(burst);
      state.extraHeaders['ratelimit-remaining'] = String(decision.remaining);
      state.extraHeaders['ratelimit-reset'] = String(decision.resetSeconds);
      if (!decision.allowed) {
        throw new AppError('RATE_LIMITED', `Too many requests for this credential; retry after ${decision.retryAfterSeconds} s`, {
          headers: { 'retry-after': String(decision.retryAfterSeconds) },
        });
      }
    });
  },
  after: addHeaders,
  onError: addHeaders,
});
