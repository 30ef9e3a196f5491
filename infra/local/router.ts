import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { callableRoutes, handlerModule, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { logRefusal, MAX_REQUEST_TARGET_BYTES, refusal, type LocalResponse } from './transport';

const projectRoot = join(import.meta.dirname, '..', '..');

export interface LocalRequest {
  method: string;
  /** Path plus optional query string, e.g. `/v1/appointments?limit=5`. */
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string;
  sourceIp?: string;
}

export type { LocalResponse } from './transport';

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  operation: string;
  route: RouteDef;
  pattern: RegExp;
  paramNames: string[];
}

/** API Gateway's `{param}` templates as regular expressions, literal segments before params. */
const compiled: CompiledRoute[] = callableRoutes(routes)
  .map(([operation, route]) => {
    const paramNames: string[] = [];
    const source = route.path
      .split('/')
      .map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment);
        if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        paramNames.push(param[1]);
        return '([^/]+)';
      })
      .join('/');
    return { operation, route, pattern: new RegExp(`^${source}/?$`), paramNames };
  })
  .sort((a, b) => a.paramNames.length - b.paramNames.length);

const handlers = new Map<string, Promise<LambdaHandler>>();

function loadHandler(operation: string, route: RouteDef): Promise<LambdaHandler> {
  let handler = handlers.get(operation);
  if (!handler) {
    const file = pathToFileURL(join(projectRoot, `${handlerModule(operation, route)}.ts`)).href;
    handler = import(file).then((module) => module.handler as LambdaHandler);
    handlers.set(operation, handler);
  }
  return handler;
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/** Builds the API Gateway HTTP API (payload 2.0) event the deployed Lambda would receive (also the bench's cold starts). */
export function toEvent(request: LocalRequest, match: Pick<CompiledRoute, 'route'>, pathParameters: Record<string, string>, requestId: string): APIGatewayProxyEventV2 {
  const url = new URL(request.url, 'http://local');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const text = single(value);
    if (text !== undefined) headers[name.toLowerCase()] = text;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${match.route.method} ${match.route.path}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    body: request.body === undefined || request.body === '' ? undefined : request.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: request.method.toUpperCase(),
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: `${match.route.method} ${match.route.path}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

export function lambdaContext(operation: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: operation,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${operation}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/local/${operation}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function toLocalResponse(response: APIGatewayProxyStructuredResultV2): LocalResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    if (value !== undefined && value !== '') headers[name.toLowerCase()] = String(value);
  }
  return { status: response.statusCode ?? 200, headers, body: response.body ?? '' };
}

/** Routes one request through the route table to the same handler module a Lambda runs. */
export async function dispatch(request: LocalRequest): Promise<LocalResponse> {
  const requestId = randomUUID();
  // The gateway's limit, checked before routing (Node's parser has none of its own below maxHeaderSize).
  if (request.url.length > MAX_REQUEST_TARGET_BYTES) {
    const tooLong = refusal('URI_TOO_LONG', requestId);
    logRefusal(tooLong, { reason: 'request target too long', targetBytes: request.url.length });
    return tooLong;
  }
  const path = new URL(request.url, 'http://local').pathname;
  const method = request.method.toUpperCase();
  for (const match of compiled) {
    const found = match.pattern.exec(path);
    if (!found || match.route.method !== method) continue;
    const pathParameters = Object.fromEntries(match.paramNames.map((name, index) => [name, decode(found[index + 1])]));
    const handler = await loadHandler(match.operation, match.route);
    const response = await runAsFunction(match.operation, () => handler(toEvent(request, match, pathParameters, requestId), lambdaContext(match.operation, requestId)));
    return toLocalResponse(response);
  }
  const [operation, route] = Object.entries(routes as Record<string, RouteDef>).find(([, candidate]) => candidate.fallback)!;
  const fallback = { operation, route, pattern: /^/, paramNames: [] };
  const handler = await loadHandler(operation, route);
  return toLocalResponse(await runAsFunction(operation, () => handler(toEvent(request, fallback, {}, requestId), lambdaContext(operation, requestId))));
}
