import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { Context } from 'aws-lambda';
import { compress } from './compress';
import { conditionalGet } from './conditional-get';
import { cors } from './cors';
import { edgeOnly } from './edge-only';
import { errors } from './errors';
import { input } from './input';
import { logging } from './logging';
import { requestState } from './request-state';
import { response } from './response';
import type { RouteDef } from './route';
import { clientIpOf } from './client-ip';
import type { ApiEvent, ApiMiddleware, ApiRequest, ApiResponse, ApiResult, RequestState } from './types';

/**
 * The middy chain every HTTP Lambda shares, one middleware a concern, composed here once; the
 * caller's middlewares (`callerWork`: audit, rate limit, idempotency, authentication, in that
 * order) sit between CORS and the error envelope. Order matters: `before` runs top-down,
 * `after`/`onError` bottom-up, so errors become the envelope before idempotency, rate-limit
 * headers, audit and logging see the final answer, and the caller is known before the body is
 * read. A GET whose If-None-Match names its ETag becomes a 304, and compression sees the final answer, after all of them and before the log line. A request that went around the stage's edge (./edge-only.ts) is refused first; CORS judges
 * the origin before any other work and marks every answer after the envelope is made.
 */
export function composeChain<R extends RouteDef & { operation: string }>(
  route: R,
  fn: (request: ApiRequest<R>) => Promise<ApiResult>,
  callerWork: ApiMiddleware[],
) {
  const states = new WeakMap<Context, RequestState>();
  const chain = middy<ApiEvent, ApiResponse, Error, Context, RequestState>()
    .use(httpHeaderNormalizer() as unknown as ApiMiddleware)
    .use(httpSecurityHeaders({ poweredBy: { server: '' } }) as unknown as ApiMiddleware)
    .use(requestState(route))
    .use(logging())
    .use(compress())
    .use(conditionalGet())
    .use(edgeOnly())
    .use(cors());
  for (const middleware of callerWork) chain.use(middleware);
  return chain
    .use(errors())
    .use(response())
    .use(input())
    .before((request) => {
      states.set(request.context, request.internal);
    })
    .handler(async (event, context) => {
      const state = states.get(context)!;
      if (state.replay) return state.replay;
      const request = {
        ...state.input!,
        caller: state.caller,
        practice: state.practice,
        headers: event.headers ?? {},
        clientIp: clientIpOf(event),
        method: event.requestContext?.http?.method ?? route.method,
        path: event.rawPath ?? route.path,
        requestId: state.requestId,
        now: state.now,
        writes: state.writes,
      } as ApiRequest<R>;
      const work = fn(request);
      if (!state.gate) return (await work) as unknown as ApiResponse;
      // Reads that overlapped the caller's gate (lib/http/auth.ts): a refusal wins, and what was read is dropped.
      const [gate, result] = await Promise.allSettled([state.gate, work]);
      if (gate.status === 'rejected') throw gate.reason;
      if (result.status === 'rejected') throw result.reason;
      return result.value as unknown as ApiResponse;
    });
}
