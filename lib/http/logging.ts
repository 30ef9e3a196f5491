import { logger, ON_LAMBDA } from '../log';
import type { ApiMiddleware, ApiMiddyRequest } from './types';

/**
 * One line per request: who called (practice and credential), its status and request id. Never
 * bodies, tokens or PII. Only what nothing else records: on AWS the function's log group names the
 * operation, and the HTTP API's access log, joined on the same request id, has the route, time,
 * address, status and latency (CloudWatch bills every byte, about 250 million lines a month at
 * 1,000 practices: docs/cost.md). A 304 sent nothing (the caller's copy is current), so it has
 * only its access log line: it is over half of all requests, the desk's list polls. Locally every
 * function writes to one output, so the line names its operation there.
 */
function logRequest(request: ApiMiddyRequest) {
  const state = request.internal;
  if (request.response?.statusCode === 304) return;
  logger.info('request', {
    ...(ON_LAMBDA ? {} : { operation: state.route.operation }),
    requestId: state.requestId,
    status: request.response?.statusCode,
    medspaId: state.caller?.medspaId,
    clientId: state.caller?.clientId,
  });
}

export const logging = (): ApiMiddleware => ({ after: logRequest, onError: logRequest });
