import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { assertAccess } from '../auth/access';
import { verifyToken, type Caller } from '../auth/tokens';
import { recordAudit, withAuditDraft, type AuditDraft } from '../db/audit';
import { AppError, isAppError } from '../errors';
import { logger } from '../log';
import { routes, type OperationName, type Routes } from '../routes';
import { parseBody } from './body';
import { successStatusOf, type RouteDef } from './route';
import { parseIfMatch, parseInput } from './validate';

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ApiRequest<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  caller: R['auth'] extends 'public' ? null : Caller;
  headers: Record<string, string | undefined>;
  method: string;
  path: string;
  requestId: string;
  /** From `If-Match`, for PATCH and DELETE. */
  ifMatch?: number;
  now: Date;
}

export interface ApiResult {
  status?: number;
  data: unknown;
  pagination?: { total: number; next_cursor: string | null };
  headers?: Record<string, string>;
}

interface CallState {
  /** Set when the request's change committed its audit entry in its own transaction. */
  auditDraft?: AuditDraft;
  requestId: string;
  startedAt: number;
  caller: Caller | null;
  params: Record<string, string | undefined>;
  resourceId: string | null;
}

type ApiEvent = APIGatewayProxyEventV2;
type ApiResponse = APIGatewayProxyStructuredResultV2;
const states = new WeakMap<object, CallState>();

const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body: JSON.stringify(body),
});

export function errorResponse(error: unknown, requestId: string, operation: string): ApiResponse {
  const appError = isAppError(error) ? error : null;
  if (!appError) logger.error('unhandled error', { operation, requestId, error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
  const failure = appError ?? new AppError('INTERNAL_ERROR');
  return json(
    failure.status,
    { success: false, error: { code: failure.code, message: failure.message, ...(failure.details ? { details: failure.details } : {}), request_id: requestId } },
    { ...failure.headers, ...(failure.code === 'UNAUTHORIZED' ? { 'www-authenticate': 'Bearer' } : {}) },
  );
}

/** The response schema shapes what leaves: field order as documented, nothing internal. */
function shape(route: RouteDef, data: unknown): unknown {
  if (!route.response) return data;
  const parsed = route.response.safeParse(data);
  if (!parsed.success) throw new Error(`response does not match its schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

function successResponse(route: RouteDef, raw: ApiResult): ApiResponse {
  const result = { ...raw, data: shape(route, raw.data) };
  const status = result.status ?? successStatusOf(route);
  if (route.envelope === false) return json(status, result.data, result.headers);
  const data = result.data as { version?: unknown } | null;
  const etag: Record<string, string> = !result.pagination && data && typeof data.version === 'number' ? { etag: `"${data.version}"` } : {};
  return json(status, { success: true, data: result.data, ...(result.pagination ? { pagination: result.pagination } : {}) }, { ...etag, ...result.headers });
}

/** Changes and denials go to the audit log; reads that succeed do not. */
async function audit(operation: string, route: RouteDef, state: CallState, response: ApiResponse) {
  const status = response.statusCode ?? 500;
  const denied = status === 401 || status === 403;
  const changed = route.method !== 'GET';
  if (!state.caller || (!changed && !denied)) return;
  if (state.auditDraft?.committed && status < 400) return;
  const outcome = status < 400 ? 'success' : (JSON.parse(String(response.body)).error?.code ?? 'error');
  try {
    await recordAudit(state.caller.medspaId, {
      at: new Date().toISOString(),
      request_id: state.requestId,
      client_id: state.caller.clientId,
      role: state.caller.role,
      operation,
      method: route.method,
      resource_id: state.resourceId,
      outcome,
      status,
    });
  } catch (error) {
    logger.error('audit write failed', { operation, requestId: state.requestId, error: (error as Error).message });
  }
}

/**
 * The middy chain every HTTP Lambda shares. A handler module is
 * `export const handler = httpHandler('operationName', async (req) => ({ data }))`.
 */
export function httpHandler<Op extends OperationName>(
  operation: Op,
  fn: (request: ApiRequest<Routes[Op]>) => Promise<ApiResult>,
) {
  const route: RouteDef = routes[operation];
  const stateOf = (context: Context) => states.get(context)!;

  const finish = async (request: middy.Request<ApiEvent, ApiResponse>) => {
    const state = stateOf(request.context);
    const response = request.response!;
    response.headers = { ...response.headers, 'x-request-id': state.requestId };
    await audit(operation, route, state, response);
    logger.info('request', {
      operation,
      requestId: state.requestId,
      status: response.statusCode,
      durationMs: Date.now() - state.startedAt,
      medspaId: state.caller?.medspaId,
      clientId: state.caller?.clientId,
    });
  };

  return middy<ApiEvent, ApiResponse>()
    .use(httpHeaderNormalizer())
    .use(httpSecurityHeaders({ poweredBy: { server: '' } }))
    .use({
      before: async (request) => {
        const params = (request.event.pathParameters ?? {}) as Record<string, string | undefined>;
        states.set(request.context, {
          requestId: request.event.requestContext?.requestId ?? randomUUID(),
          startedAt: Date.now(),
          caller: null,
          params,
          resourceId: params.id ?? params.client_id ?? null,
        });
      },
      after: finish,
      onError: async (request) => {
        request.response = errorResponse(request.error, stateOf(request.context).requestId, operation);
        await finish(request);
      },
    })
    // Authenticate before reading the body: an unauthenticated caller learns nothing from it.
    .use({
      before: async (request) => {
        if (route.auth === 'public') return;
        const match = /^Bearer\s+(\S+)$/i.exec(request.event.headers?.authorization ?? '');
        if (!match) throw new AppError('UNAUTHORIZED');
        const caller = await verifyToken(match[1]);
        stateOf(request.context).caller = caller;
        await assertAccess(caller, { allowWaitlisted: route.allowWaitlisted ?? false });
        if (!route.auth.includes(caller.role)) throw new AppError('FORBIDDEN');
      },
    })
    .use(parseBody(route))
    .handler(async (event, context) => {
      const state = stateOf(context);
      const rawQuery = event.queryStringParameters ?? {};
      const bodyAsQuery = route.queryFromBody && event.body && typeof event.body === 'object' ? (event.body as object) : {};
      const request = {
        body: parseInput(route.body, route.body ? event.body : undefined, 'body'),
        query: parseInput(route.query, { ...bodyAsQuery, ...rawQuery }, 'query'),
        params: parseInput(route.params, state.params, 'path'),
        caller: state.caller,
        headers: event.headers ?? {},
        method: event.requestContext?.http?.method ?? route.method,
        path: event.rawPath ?? route.path,
        requestId: state.requestId,
        ifMatch: parseIfMatch(event.headers?.['if-match']),
        now: new Date(),
      } as ApiRequest<Routes[Op]>;
      const caller = state.caller;
      if (caller && route.method !== 'GET') {
        state.auditDraft = {
          medspaId: caller.medspaId,
          committed: false,
          entry: {
            request_id: state.requestId, client_id: caller.clientId, role: caller.role, operation, method: route.method,
            resource_id: state.resourceId, outcome: 'success', status: successStatusOf(route),
          },
        };
      }
      const result = state.auditDraft ? await withAuditDraft(state.auditDraft, () => fn(request)) : await fn(request);
      // Credentials are named by client_id (they have no `id`): the audit log records that.
      const data = result.data as { id?: unknown; client_id?: unknown } | null;
      const created = data?.id ?? data?.client_id;
      if (!state.resourceId && typeof created === 'string') state.resourceId = created;
      return successResponse(route, result);
    });
}
