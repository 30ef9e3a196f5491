import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { callableRoutes, handlerModule, methodsOf, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { logRefusal, MAX_REQUEST_TARGET_BYTES, refusal, type LocalResponse } from './transport';

const projectRoot = join(import.meta.dirname, '..', '..');

export interface LocalRequest {
  method: string;
  /** The request target as received: path plus optional query string, e.g. `/v1/appointments?limit=5`. */
  url: string;
  /** Names in any case; a repeated header as the array of its values (the HTTP server passes every line). */
  headers?: Record<string, string | string[] | undefined>;
  /** Bytes as received (the HTTP server), or text (in-process callers). */
  body?: string | Buffer;
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

/**
 * Content types whose bodies an HTTP API hands to Lambda as text; any other body, a missing content
 * type and form posts included, arrives base64-encoded with `isBase64Encoded`. AWS documents the
 * mechanism but not the list: this is the split observed on live HTTP APIs (payload 2.0).
 */
const isTextType = (contentType: string | undefined) => {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type.startsWith('text/') || ['application/json', 'application/xml', 'application/javascript'].includes(type);
};

/**
 * Builds the API Gateway HTTP API (payload 2.0) event the deployed Lambda would receive (also the
 * bench's cold starts): header names lower-cased, repeats joined with ',' and the Cookie header
 * moved to `cookies`; repeated query parameters joined with ','; the path decoded (as live HTTP
 * APIs deliver `rawPath`).
 */
export function toEvent(
  request: LocalRequest,
  match: Pick<CompiledRoute, 'route'>,
  pathParameters: Record<string, string>,
  requestId: string,
): APIGatewayProxyEventV2 {
  const url = new URL(request.url, 'http://local');
  // Maps, not objects: a header or parameter named `__proto__` or `constructor` stays an ordinary key.
  const headers = new Map<string, string>();
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    const key = name.toLowerCase();
    if (key === 'cookie')
      cookies.push(
        ...values.flatMap((line) =>
          line
            .split(';')
            .map((cookie) => cookie.trim())
            .filter(Boolean),
        ),
      );
    else headers.set(key, headers.has(key) ? `${headers.get(key)},${values.join(',')}` : values.join(','));
  }
  const rawQueryString = /\?([^#]*)/.exec(request.url)?.[1] ?? '';
  const query = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQueryString))
    query.set(name, query.has(name) ? `${query.get(name)},${value}` : value);
  const bytes = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
  const text = isTextType(headers.get('content-type'));
  const path = decode(url.pathname);
  // The route the request matched: a HEAD to a route with `head` is its own (`HEAD /book`).
  const routeKey = match.route.fallback ? '$default' : `${request.method.toUpperCase()} ${match.route.path}`;
  const domainName = headers.get('host') ?? '127.0.0.1';
  const now = new Date();
  const [, day, month, year, time] = now.toUTCString().split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    headers: Object.fromEntries(headers),
    queryStringParameters: query.size ? Object.fromEntries(query) : undefined,
    pathParameters: Object.keys(pathParameters).length ? pathParameters : undefined,
    body: bytes?.length ? bytes.toString(text ? 'utf8' : 'base64') : undefined,
    isBase64Encoded: Boolean(bytes?.length) && !text,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0],
      http: {
        method: request.method.toUpperCase(),
        path,
        protocol: 'HTTP/1.1',
        // An IPv4 peer of a dual-stack socket is reported as itself, as API Gateway reports it.
        sourceIp: request.sourceIp?.replace(/^::ffff:(?=\d+\.)/, '') ?? '127.0.0.1',
        userAgent: headers.get('user-agent') ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      // API Gateway's format: 12/Mar/2020:19:03:58 +0000.
      time: `${day}/${month}/${year}:${time} +0000`,
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
  return {
    status: response.statusCode ?? 200,
    headers,
    body: response.body ?? '',
    ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}),
  };
}

/** API Gateway's `$default` route: whatever no other route matches. */
const [fallbackOperation, fallbackRoute] = Object.entries(routes as Record<string, RouteDef>).find(
  ([, candidate]) => candidate.fallback,
)!;
/** The `OPTIONS /v1/{proxy+}` route: every CORS preflight of the API's paths. */
const [preflightOperation, preflightRoute] = Object.entries(routes as Record<string, RouteDef>).find(
  ([, candidate]) => candidate.preflight,
)!;
const PREFLIGHT_PREFIX = preflightRoute.path.replace('{proxy+}', '');

/** The route a request takes through the route table, and the event API Gateway sends its function. */
export function eventFor(
  request: LocalRequest,
  requestId: string,
): { operation: string; route: RouteDef; event: APIGatewayProxyEventV2 } {
  const path = new URL(request.url, 'http://local').pathname;
  const method = request.method.toUpperCase();
  if (method === 'OPTIONS' && path.startsWith(PREFLIGHT_PREFIX) && path.length > PREFLIGHT_PREFIX.length) {
    const proxy = decode(path.slice(PREFLIGHT_PREFIX.length));
    return {
      operation: preflightOperation,
      route: preflightRoute,
      event: toEvent(request, { route: preflightRoute }, { proxy }, requestId),
    };
  }
  for (const match of compiled) {
    const found = match.pattern.exec(path);
    if (!found || !(methodsOf(match.route) as readonly string[]).includes(method)) continue;
    const pathParameters = Object.fromEntries(match.paramNames.map((name, index) => [name, decode(found[index + 1])]));
    return {
      operation: match.operation,
      route: match.route,
      event: toEvent(request, match, pathParameters, requestId),
    };
  }
  return {
    operation: fallbackOperation,
    route: fallbackRoute,
    event: toEvent(request, { route: fallbackRoute }, {}, requestId),
  };
}

/** An id shaped like the HTTP API's `$context.requestId` (16 characters, e.g. `Jk6sTgWmoAMEVvA=`), so logs measure as on AWS. */
const gatewayRequestId = () => randomBytes(11).toString('base64');

/** Routes one request through the route table to the same handler module a Lambda runs. */
export async function dispatch(request: LocalRequest): Promise<LocalResponse> {
  const requestId = gatewayRequestId();
  // The gateway's limit, checked before routing (Node's parser has none of its own below maxHeaderSize).
  if (request.url.length > MAX_REQUEST_TARGET_BYTES) {
    const tooLong = refusal('URI_TOO_LONG', requestId);
    logRefusal(tooLong, { reason: 'request target too long', targetBytes: request.url.length });
    return tooLong;
  }
  const { operation, route, event } = eventFor(request, requestId);
  const handler = await loadHandler(operation, route);
  return toLocalResponse(await runAsFunction(operation, () => handler(event, lambdaContext(operation, requestId))));
}
