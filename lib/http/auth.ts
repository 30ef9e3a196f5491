import { accessOf, assertAccess, publicAccessOf } from '../auth/access';
import { verifyToken, type AnyCaller, type Caller, type PublicCaller } from '../auth/tokens';
import { AppError } from '../errors';
import { parsePublishableKey } from '../auth/publishable-keys';
import { admitOrigin, admitUnidentified } from './cors';
import { readsOverlapGate } from './route';
import type { ApiMiddleware, ApiMiddyRequest, RequestState } from './types';

/** What a public route's 401 says: its credential is the key, not a bearer token. */
const NO_PUBLISHABLE_KEY = 'A valid publishable key (X-Publishable-Key) is required';

const rejectedReason = (outcomes: PromiseSettledResult<unknown>[]) =>
  (outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult | undefined)?.reason;

/** 401, readable from any origin (lib/http/cors.ts: an unidentified caller has no list to judge by). */
function unidentified(request: ApiMiddyRequest, error: unknown = new AppError('UNAUTHORIZED')): never {
  admitUnidentified(request);
  throw error;
}

/**
 * A staff route: bearer token, the practice's allowed origins, the access gate, the route's roles.
 * A publishable key is no staff credential (API reference, online booking): 401 wherever it goes.
 * A read-only route's reads overlap the gate unless the token's role is refused anyway.
 */
async function staffCaller(request: ApiMiddyRequest, roles: readonly string[]) {
  const state = request.internal;
  const headers = request.event.headers ?? {};
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
  if (!match || headers['x-publishable-key'] !== undefined) unidentified(request);
  const caller = await verifyToken(match[1]).catch((error: unknown) => unidentified(request, error));
  state.caller = caller;
  return openGate(state, caller, readsOverlapGate(state.route) && roles.includes(caller.role), () =>
    staffGate(request, caller, roles),
  );
}

/**
 * Opens the caller's gate: awaited here, or, for a read-only route nothing known refuses (a bucket
 * this container saw drained), left for the handler's answer and the error mapper to wait for
 * (lib/http/chain.ts, errors.ts), so the route's reads go out with it (docs/decisions/0014).
 */
function openGate(
  state: RequestState,
  caller: AnyCaller,
  readsMayOverlap: boolean,
  open: () => Promise<void>,
): Promise<void> | undefined {
  const overlap = readsMayOverlap && !state.holdReads.some((hold) => hold(caller));
  const gate = open();
  if (!overlap) return gate;
  state.gate = gate;
  // Settled by the handler or the error mapper; never unhandled meanwhile.
  gate.catch(() => undefined);
  return undefined;
}

/**
 * The credential check and the work other middlewares hang on the caller (the rate-limit bucket)
 * overlap: one round trip of latency, not two. The credential's verdict comes first.
 */
async function staffGate(request: ApiMiddyRequest, caller: Caller, roles: readonly string[]) {
  const state = request.internal;
  const [access, ...others] = await Promise.allSettled([
    accessOf(caller),
    ...state.onAuthenticated.map((work) => work(caller)),
  ]);
  if (access.status === 'rejected') throw access.reason;
  admitOrigin(request, access.value.allowedOrigins);
  assertAccess(access.value, { allowWaitlisted: state.route.allowWaitlisted ?? false });
  if (!roles.includes(caller.role)) throw new AppError('FORBIDDEN');
  const failed = rejectedReason(others);
  if (failed) throw failed;
}

/** Runs a stage's work; the first refusal, if any. */
const refusalOf = async (work: (() => Promise<void>)[]) =>
  rejectedReason(await Promise.allSettled(work.map((run) => run())));

/**
 * A public route: `X-Publishable-Key` (a bearer token alone is 401), read with its practice in one
 * cached lookup, unless the client IP is already refused (a flood of made-up keys). The caller is
 * known only once the key is: a made-up key writes nothing in any practice, only its address's
 * bucket. Then the key's origins, the practice's access gate and online booking (403
 * ONLINE_BOOKING_DISABLED for every public call while it is off), and only then the key's buckets
 * and Idempotency-Key claim (a read-only call's reads overlap the buckets).
 */
async function publicCaller(request: ApiMiddyRequest) {
  const state = request.internal;
  const named = parsePublishableKey(request.event.headers?.['x-publishable-key']?.trim() ?? '');
  if (!named) unidentified(request, new AppError('UNAUTHORIZED', NO_PUBLISHABLE_KEY));
  const refused = await refusalOf(state.beforeIdentified);
  if (refused) unidentified(request, refused);
  const { keyLive, practice, allowedOrigins, rateLimits } = await publicAccessOf(named.medspaId, named.keyId);
  // A flood of made-up keys from one address is refused as such (429), not answered 401 forever.
  if (!keyLive || !practice)
    unidentified(request, (await refusalOf(state.onUnknownKey)) ?? new AppError('UNAUTHORIZED', NO_PUBLISHABLE_KEY));
  const caller: PublicCaller = { medspaId: named.medspaId, clientId: named.keyId, role: 'public' };
  state.keyRateLimits = rateLimits;
  try {
    admitOrigin(request, allowedOrigins);
  } catch (refusal) {
    // A live key's refusal is audited in its practice (every denied call is) while its visitor's
    // budget lasts: a flood of refused origins writes no more than one visitor may send.
    if (!(await refusalOf(state.onRefusedOrigin.map((take) => () => take(caller))))) state.caller = caller;
    throw refusal;
  }
  state.caller = caller;
  state.practice = practice;
  if (practice.api_access !== 'enabled') throw new AppError('API_ACCESS_NOT_ENABLED');
  if (!practice.online_booking.enabled) throw new AppError('ONLINE_BOOKING_DISABLED');
  // The key's buckets: a read-only call's reads go out with them.
  return openGate(state, caller, readsOverlapGate(state.route), async () => {
    const chained = rejectedReason(await Promise.allSettled(state.onAuthenticated.map((work) => work(caller))));
    if (chained) throw chained;
  });
}

/** Identifies the caller before the body is read: an unauthenticated caller learns nothing from it. */
export const auth = (): ApiMiddleware => ({
  before: async (request) => {
    const { route } = request.internal;
    if (route.auth === 'public') {
      // The token exchange takes a credential of its own: a publishable key works on public-booking
      // routes only (API reference, online booking), so beside it, in either header, it is 401.
      const headers = request.event.headers ?? {};
      if (headers['x-publishable-key'] !== undefined || /^Bearer\s+pk_/i.test(headers.authorization ?? ''))
        unidentified(request);
      return;
    }
    if (route.auth === 'publishable') return publicCaller(request);
    return staffCaller(request, route.auth);
  },
});
