import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { Context } from 'aws-lambda';
import { audit } from './audit';
import { auth } from './auth';
import { cors } from './cors';
import { errors } from './errors';
import { idempotency } from './idempotency';
import { input } from './input';
import { logging } from './logging';
import { rateLimit } from './rate-limit';
import { requestState } from './request-state';
import { response } from './response';
import type { RouteDef } from './route';
import type { ApiEvent, ApiMiddleware, ApiRequest, ApiResponse, ApiResult, RequestState } from './types';

export type { ApiRequest, ApiResult } from './types';

/**
 * The middy chain every HTTP Lambda shares, one middleware a concern, composed here once.
 * Order matters: `before` runs top-down, `after`/`onError` bottom-up, so errors become the
 * envelope before idempotency, rate-limit headers, audit and logging see the final answer, and
 * the caller is known before the body is read. CORS judges the origin before any work and marks
 * every answer after the envelope is made. Rate limiting and the idempotency claim hang their
 * work on authentication, which runs it in parallel with the credential check. A handler module is
 * `export const handler = httpHandler(appointmentRoutes.createAppointment, async (req) => ({ data }))`.
 */
export function httpHandler<R extends RouteDef & { operation: string }>(route: R, fn: (request: ApiRequest<R>) => Promise<ApiResult>) {
  const states = new WeakMap<Context, RequestState>();
  return middy<ApiEvent, ApiResponse, Error, Context, RequestState>()
    .use(httpHeaderNormalizer() as unknown as ApiMiddleware)
    .use(httpSecurityHeaders({ poweredBy: { server: '' } }) as unknown as ApiMiddleware)
    .use(requestState(route))
    .use(logging())
    .use(cors())
    .use(audit())
    .use(rateLimit())
    .use(idempotency())
    .use(auth())
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
        method: event.requestContext?.http?.method ?? route.method,
        path: event.rawPath ?? route.path,
        requestId: state.requestId,
        now: state.now,
        writes: state.writes,
      } as ApiRequest<R>;
      return (await fn(request)) as unknown as ApiResponse;
    });
}
