import { config } from '../config';
import { credentialBucket, expectsToken, ipBucket, keyIpBucket, takeToken, type Bucket } from '../db/rate-limits';
import { policyOf, type BucketPolicy } from '../domain/rate-limit';
import { AppError } from '../errors';
import { clientIpOf } from './client-ip';
import { isLimitedByKey, isLimitedPerIp, isRateLimited } from './route';
import type { AnyCaller } from '../auth/tokens';
import type { ApiMiddleware, ApiMiddyRequest, RequestState } from './types';

const addHeaders = async (request: ApiMiddyRequest) => {
  if (request.response) request.response.headers = { ...request.response.headers, ...request.internal.extraHeaders };
};

/** A bucket and its policy; a refusal says which budget (`what`). */
interface Budget {
  bucket: Bucket;
  policy: BucketPolicy;
  what: string;
  /** Whether it is the caller's own budget, which the answer's RateLimit-* headers describe. */
  describes: boolean;
}

/** Takes a token from one bucket; the answer's RateLimit-* headers are the last one's taken that describes the caller's own budget. */
async function takeFrom(state: RequestState, { bucket, policy, what, describes }: Budget) {
  const decision = await takeToken(bucket, state.now.getTime(), policy);
  if (describes) {
    state.extraHeaders['ratelimit-limit'] = String(policy.burst);
    state.extraHeaders['ratelimit-remaining'] = String(decision.remaining);
    state.extraHeaders['ratelimit-reset'] = String(decision.resetSeconds);
  }
  if (!decision.allowed) {
    throw new AppError('RATE_LIMITED', `Too many requests ${what}; retry after ${decision.retryAfterSeconds} s`, {
      headers: { 'retry-after': String(decision.retryAfterSeconds) },
    });
  }
}

/**
 * Token buckets in the table, so limits hold across Lambda containers. Every answer to a limited
 * route carries RateLimit-Limit/-Remaining/-Reset of the caller's own budget; a refusal is 429
 * RATE_LIMITED with Retry-After and says which budget refused.
 * - A staff credential: its bucket (RATE_LIMIT_RPS, RATE_LIMIT_BURST; 0 rps = off), taken once the
 *   token is verified, in parallel with the credential check (lib/http/auth.ts).
 * - A publishable key (while RATE_LIMIT_RPS > 0): once the key is known, the client IP's budget on
 *   that key, then, only if it gave a token, the key's overall budget (its `rate_limits`), so a
 *   visitor over their own budget never spends everyone else's. The headers are the visitor's.
 * - A client IP before its caller is known (RATE_LIMIT_IP_RPS, RATE_LIMIT_IP_BURST; 0 = off): the
 *   token exchange takes from it first; a public call takes from it only when its key turns out
 *   unknown, and an address this container saw drained is refused before the key's read (no call
 *   at all), so floods of made-up keys are refused while real visitors pay nothing for it.
 */
export const rateLimit = (): ApiMiddleware => ({
  before: async (request) => {
    const settings = config();
    const state = request.internal;
    const { route } = state;
    const now = state.now.getTime();
    const sourceIp = clientIpOf(request.event);
    if (settings.RATE_LIMIT_IP_RPS > 0 && sourceIp && isLimitedPerIp(route)) {
      const policy = { rps: settings.RATE_LIMIT_IP_RPS, burst: settings.RATE_LIMIT_IP_BURST };
      const byIp = () =>
        takeFrom(state, { bucket: ipBucket(sourceIp), policy, what: 'from this client address', describes: true });
      if (route.auth === 'public') await byIp();
      else {
        // Refused on what this container saw (a bucket it saw drained is so at least until then): no call.
        state.beforeIdentified.push(async () => {
          if (!expectsToken(ipBucket(sourceIp), now, policy)) await byIp();
        });
        state.onUnknownKey.push(byIp);
      }
    }
    if (settings.RATE_LIMIT_RPS > 0 && isLimitedByKey(route)) {
      // In the order taken: the visitor's budget on the key (the answer's headers), then the key's overall one.
      const budgetsOf = ({ medspaId, clientId }: AnyCaller): Budget[] => {
        const limits = state.keyRateLimits!;
        const overall: Budget = {
          bucket: credentialBucket(medspaId, clientId),
          policy: policyOf(limits.overall),
          what: 'for this publishable key overall (all its visitors together)',
          describes: !sourceIp,
        };
        if (!sourceIp) return [overall];
        return [
          {
            bucket: keyIpBucket(medspaId, clientId, sourceIp),
            policy: policyOf(limits.per_client_ip),
            what: 'from this client address on this publishable key',
            describes: true,
          },
          overall,
        ];
      };
      state.onAuthenticated.push(async (caller) => {
        for (const budget of budgetsOf(caller)) await takeFrom(state, budget);
      });
      state.onRefusedOrigin.push((caller) => takeFrom(state, budgetsOf(caller)[0]!));
      state.holdReads.push((caller) =>
        budgetsOf(caller).some(({ bucket, policy }) => !expectsToken(bucket, now, policy)),
      );
    } else if (settings.RATE_LIMIT_RPS > 0 && isRateLimited(route)) {
      const policy = { rps: settings.RATE_LIMIT_RPS, burst: settings.RATE_LIMIT_BURST };
      state.onAuthenticated.push((caller) =>
        takeFrom(state, {
          bucket: credentialBucket(caller.medspaId, caller.clientId),
          policy,
          what: 'for this credential',
          describes: true,
        }),
      );
      // A caller this container expects to refuse reads nothing: a flood stays free of reads.
      state.holdReads.push((caller) => !expectsToken(credentialBucket(caller.medspaId, caller.clientId), now, policy));
    }
  },
  after: addHeaders,
  onError: addHeaders,
});
