import { logger } from '../log';
import type { ApiMiddleware, ApiMiddyRequest } from './types';

/** One line per request: operation, status, duration and ids. Never bodies, tokens or PII. */
function logRequest(request: ApiMiddyRequest) {
  const state = request.internal;
  logger.info('request', {
    operation: state.route.operation,
    requestId: state.requestId,
    status: request.response?.statusCode,
    durationMs: Date.now() - state.startedAt,
    medspaId: state.caller?.medspaId,
    clientId: state.caller?.clientId,
  });
}

export const logging = (): ApiMiddleware => ({ after: logRequest, onError: logRequest });
