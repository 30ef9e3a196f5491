import { auditPut, recordAudit, type AuditEntry } from '../db/audit';
import { toWellFormed } from '../domain/text';
import { logger } from '../log';
import { successStatusOf } from './route';
import type { ApiMiddleware, ApiMiddyRequest, RequestState } from './types';

/** The audit entry of one request of a known caller (test fixtures writing below HTTP make the same). */
export const auditEntry = (
  state: Pick<RequestState, 'now' | 'requestId' | 'resourceId'> & {
    caller: { clientId: string; role: AuditEntry['role'] };
    route: { operation: string; method: string };
  },
  outcome: string,
  status: number,
): AuditEntry => ({
  at: state.now.toISOString(),
  request_id: state.requestId,
  client_id: state.caller.clientId,
  role: state.caller.role,
  operation: state.route.operation,
  method: state.route.method,
  // A raw path id: a refused one (a lone surrogate) is still recorded, in a form DynamoDB takes.
  resource_id: state.resourceId === null ? null : toWellFormed(state.resourceId),
  outcome,
  status,
});

const entryOf = (state: RequestState, outcome: string, status: number): AuditEntry =>
  auditEntry({ ...state, caller: state.caller! }, outcome, status);

/** Changes and denials of known callers go to the audit log; reads that succeed do not, but PHI reads (`audited` rows) do. */
async function recordOutcome(request: ApiMiddyRequest) {
  const state = request.internal;
  const response = request.response;
  const status = response?.statusCode ?? 500;
  const denied = status === 401 || status === 403;
  // A replay changes nothing: the first request's entry stands (a caller refused before its replay is audited).
  if (
    !state.caller ||
    (state.replay && !request.error) ||
    (state.route.method === 'GET' && !denied && !state.route.audited)
  )
    return;
  if (state.writes.isCommitted && status < 400) return;
  const outcome =
    status < 400 ? 'success' : String((request.error as { code?: unknown } | null)?.code ?? 'INTERNAL_ERROR');
  try {
    await recordAudit(state.caller.medspaId, entryOf(state, outcome, status));
  } catch (error) {
    logger.error('audit write failed', {
      operation: state.route.operation,
      requestId: state.requestId,
      error: (error as Error).message,
    });
  }
}

/**
 * The audit entry of a change rides in the request writes, so the change's own write commits it
 * (a committed change always has its entry, at no extra round trip); changes written without the
 * request writes, and failures, are recorded after the response is known. The entry's `at` is the
 * request's `now`, which is also the change's `updated_at`.
 */
export const audit = (): ApiMiddleware => ({
  before: async (request) => {
    const state = request.internal;
    if (state.route.method === 'GET') return;
    state.writes.add((actions) =>
      state.caller
        ? auditPut(state.caller.medspaId, entryOf(state, 'success', successStatusOf(state.route)), actions)
        : null,
    );
  },
  after: recordOutcome,
  onError: recordOutcome,
});
