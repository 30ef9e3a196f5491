import { createHash, randomUUID } from 'node:crypto';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  idempotencyCommitAction,
  readIdempotencyRecord,
  releaseIdempotencyKey,
  type IdempotencyRecord,
  type StoredResponse,
} from '../db/idempotency';
import type { AnyCaller } from '../auth/tokens';
import { AppError } from '../errors';
import { retry } from '../retry';
import { clientIpOf } from './client-ip';
import { isIdempotent } from './route';
import type { ApiMiddleware, ApiMiddyRequest, ApiResponse } from './types';

/** A claim older than this belongs to a request that died (Lambda's limit is 29 s behind API Gateway). */
const LOCK_MS = 60_000;
/** How long a concurrent duplicate waits for the first request's answer before 409 IDEMPOTENCY_KEY_IN_USE. */
const WAIT_MS = 5_000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ['content-type', 'etag', 'location'];

const fingerprintOf = (request: ApiMiddyRequest) => {
  const { event } = request;
  const body = event.body
    ? event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body
    : '';
  return createHash('sha256')
    .update(`${request.internal.route.method} ${event.rawPath ?? request.internal.route.path}\n${body}`)
    .digest('base64url');
};

/**
 * The first answer again. One too large to have been kept (lib/db/idempotency.ts responseAttribute)
 * cannot be: the operation ran once and stays so, and the retry learns that (409, with the
 * resource's Location when the first answer had one), never a second run and never a 500.
 */
function replayOf(response: StoredResponse): ApiResponse {
  if (response.body === null) {
    const location = response.headers.location ?? response.headers.Location;
    throw new AppError(
      'CONFLICT',
      'The request with this Idempotency-Key completed, but its answer was too large to keep for replay; read the resource instead',
      {
        headers: { 'idempotent-replayed': 'true', ...(location ? { location } : {}) },
      },
    );
  }
  return {
    statusCode: response.status,
    headers: { ...response.headers, 'idempotent-replayed': 'true' },
    body: response.body,
  };
}

/** Decides on a record held by another request: replay it, refuse it, or wait for it to finish (polling, 25 ms doubling to 400 ms). */
const settle = (
  record: IdempotencyRecord | null,
  fingerprint: string,
  reread: () => Promise<IdempotencyRecord | null>,
): Promise<ApiResponse> =>
  retry<ApiResponse>(
    async (attempt) => {
      const current = attempt === 1 ? record : await reread();
      if (current && current.fingerprint !== fingerprint) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      if (current?.status === 'completed' && current.response) return { done: replayOf(current.response) };
      return { retry: 'later' };
    },
    {
      attempts: Number.POSITIVE_INFINITY,
      delayMs: (attempt) => Math.min(25 * 2 ** (attempt - 1), 400),
      deadline: Date.now() + WAIT_MS,
      exhausted: () => {
        throw new AppError('IDEMPOTENCY_KEY_IN_USE');
      },
    },
  );

/** Refusals before any work (the caller's credential, origin, role or rate limit): never an answer to keep. */
const REFUSALS = new Set([401, 403, 429]);

async function store(request: ApiMiddyRequest) {
  const state = request.internal;
  const claim = state.idempotency;
  const response = request.response;
  if (!claim || !state.caller || !response || state.replay) return;
  const { medspaId } = state.caller;
  const status = response.statusCode ?? 500;
  // A 5xx is not an answer to keep, nor a refusal: give the key back (unless the change committed) so a retry runs.
  if (status >= 500 || REFUSALS.has(status))
    return releaseIdempotencyKey(medspaId, claim.scope, claim.key, claim.lockId);
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {})
      .filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase()))
      .map(([name, value]) => [name, String(value)]),
  );
  await completeIdempotencyKey(medspaId, claim.scope, claim.key, claim.lockId, {
    status,
    headers,
    body: String(response.body ?? ''),
  });
}

/**
 * Whose records a key is one of (API reference, conventions): a credential's own; for a public
 * call the publishable key's, narrowed to the client IP and, on manage links, the booking token
 * (on held bookings and hold releases, the hold token; hashed: none is stored), so a replay never hands one visitor's answer to another.
 */
function scopeOf(request: ApiMiddyRequest, caller: AnyCaller): string {
  if (caller.role !== 'public') return caller.clientId;
  const ip = clientIpOf(request.event) ?? '';
  const bookingToken = request.event.headers?.['x-booking-token'] ?? '';
  // A held booking's answer is the hold token holder's alone (a scope without one hashes as before).
  const holdToken = request.event.headers?.['x-hold-token'];
  const held = holdToken ? `\n${holdToken}` : '';
  return `${caller.clientId}#${createHash('sha256').update(`${ip}\n${bookingToken}${held}`).digest('base64url')}`;
}

/**
 * `Idempotency-Key` on POSTs (API reference, conventions), keys per caller scope (`scopeOf`), records kept
 * 24 h. The key is claimed once the caller is identified (a token: in parallel with the credential
 * check; a publishable key: after its origin and online booking checks), and an answer is
 * replayed only to a caller whose checks all passed. The change's own write marks it committed,
 * atomically, so a committed operation never runs twice; the answer (2xx or 4xx) is stored for
 * replay; a 5xx or a refusal before any work (401, 403, 429) gives the key back. The same key with another
 * body is 422 IDEMPOTENCY_KEY_REUSED; a duplicate arriving while the first runs waits up to 5 s
 * for its answer, then 409 IDEMPOTENCY_KEY_IN_USE.
 */
export const idempotency = (): ApiMiddleware => ({
  before: async (request) => {
    const state = request.internal;
    const key = request.event.headers?.['idempotency-key'];
    if (key === undefined && state.route.idempotent === 'required') {
      // Refused once the caller is known: an unauthenticated call is a 401 first.
      state.onAuthenticated.push(async () => {
        throw new AppError('VALIDATION_ERROR', 'Idempotency-Key is required', {
          details: [{ path: 'Idempotency-Key', message: 'required' }],
        });
      });
      return;
    }
    if (key === undefined || !isIdempotent(state.route)) return;
    if (!KEY.test(key)) {
      throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1-255 visible ASCII characters', {
        details: [{ path: 'Idempotency-Key', message: 'expected 1-255 visible ASCII characters' }],
      });
    }
    const fingerprint = fingerprintOf(request);
    state.onAuthenticated.push(async (caller) => {
      const { medspaId } = caller;
      const scope = scopeOf(request, caller);
      const lockId = randomUUID();
      const now = Date.now();
      const outcome = await claimIdempotencyKey({
        medspaId,
        clientId: scope,
        key,
        fingerprint,
        lockId,
        now,
        lockMs: LOCK_MS,
      });
      if (outcome.claimed) {
        state.idempotency = { key, lockId, scope };
        state.writes.add(() => idempotencyCommitAction(medspaId, scope, key, state.now.toISOString()));
        return;
      }
      // Replayed only once the caller's gate has opened (lib/http/chain.ts): a refused caller gets its refusal.
      state.replay = await settle(outcome.record, fingerprint, () => readIdempotencyRecord(medspaId, scope, key));
    });
  },
  after: store,
  onError: store,
});
