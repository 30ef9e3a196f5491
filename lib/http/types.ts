import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from '../schemas/zod';
import type { AnyCaller, Caller, PublicCaller } from '../auth/tokens';
import type { KeyRateLimits } from '../domain/rate-limit';
import type { PracticeRecord } from '../domain/records';
import type { RequestWrites } from '../db/request-writes';
import type { RouteDef } from './route';

type Infer<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** What a handler function receives: parsed input, the caller, and the request's time and writes. */
export interface ApiRequest<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  caller: R['auth'] extends 'public' ? null : R['auth'] extends 'publishable' ? PublicCaller : Caller;
  /**
   * Public (publishable-key) routes: the key's practice, as read with the key (at most
   * AUTH_CACHE_TTL_MS old), online booking enabled. Undefined elsewhere.
   */
  practice: R['auth'] extends 'publishable' ? PracticeRecord : undefined;
  headers: Record<string, string | undefined>;
  /** The client's IP as the per-IP limits see it (lib/http/client-ip.ts). */
  clientIp?: string;
  method: string;
  path: string;
  requestId: string;
  /** From `If-Match`, for PATCH and DELETE. */
  ifMatch?: number;
  /** The request's one instant (the clock's): a change's `updated_at` and its audit entry's `at`. */
  now: Date;
  /** Request-scoped writes (the audit entry) for the data layer's transaction to commit with the change. */
  writes: RequestWrites;
}

export interface ApiResult {
  status?: number;
  /** The answer's data; a `prebuilt` row's is its `PrebuiltAnswer` (lib/http/prebuilt.ts). */
  data: unknown;
  /** The contract's, or the event feed's (its cursor never null, `has_more` instead of `total`). */
  pagination?: { total: number; next_cursor: string | null } | { next_cursor: string; has_more: boolean };
  /** A list's cursor after `data[index]`, so an answer too large for Lambda can be cut there (lib/http/response.ts). */
  cursorAfter?: (index: number) => string | null;
  headers?: Record<string, string>;
}

/** Per-invocation state the middlewares share (middy's `request.internal`). */
export type RequestState = {
  route: RouteDef & { operation: string };
  requestId: string;
  now: Date;
  caller: AnyCaller | null;
  /** Public routes: the key's practice (lib/http/auth.ts). */
  practice?: PracticeRecord;
  /** The request's `Origin`, once admitted (lib/http/cors.ts): its answer carries the CORS headers. */
  corsOrigin?: string;
  params: Record<string, string | undefined>;
  resourceId: string | null;
  writes: RequestWrites;
  /** Set by the input middleware. */
  input?: { body: unknown; query: unknown; params: unknown; ifMatch?: number };
  /** The handler's result before shaping, for middlewares that need it. */
  result?: ApiResult;
  /** Work to run once the token is verified, in parallel with the credential check (rate limiting). */
  onAuthenticated: ((caller: AnyCaller) => Promise<void>)[];
  /** Reasons a read-only route's reads wait for the gate after all (a bucket expected to refuse). */
  holdReads: ((caller: AnyCaller) => boolean)[];
  /**
   * The caller's gate (credential check, bucket) while a read-only route's reads overlap it
   * (lib/http/auth.ts): the answer, or the error answered, waits for it, and its refusal wins.
   */
  gate?: Promise<void>;
  /**
   * Checks before a publishable key is looked up, which may refuse but read and write nothing (a
   * client IP this container saw flood made-up keys): a refused flood costs no read.
   */
  beforeIdentified: (() => Promise<void>)[];
  /** Work when a public call's key turns out unknown or deleted (the client IP's bucket), before its 401. */
  onUnknownKey: (() => Promise<void>)[];
  /** A live publishable key's call refused for its Origin: its visitor's budget, taken before it is audited. */
  onRefusedOrigin: ((caller: AnyCaller) => Promise<void>)[];
  /** Public routes: the key's rate limits, read with the key (lib/http/auth.ts). */
  keyRateLimits?: KeyRateLimits;
  /** Response headers middlewares add to whatever is answered (RateLimit-*). */
  extraHeaders: Record<string, string>;
  /** Set by the idempotency middleware: this request's claim on its key, or the response to replay. */
  idempotency?: { key: string; lockId: string; scope: string };
  replay?: ApiResponse;
};

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResponse = APIGatewayProxyStructuredResultV2;
export type ApiMiddyRequest = middy.Request<ApiEvent, ApiResponse, Error, Context, RequestState>;
export type ApiMiddleware = middy.MiddlewareObj<ApiEvent, ApiResponse, Error, Context, RequestState>;

/**
 * Headers whose one Vary header also names `names`: an existing `vary` (any case) keeps its spelling
 * and its names, each name once. Two Vary keys would reach the client as one, the other lost.
 */
export function withVary<V extends string | number | boolean>(
  headers: Record<string, V> = {},
  ...names: string[]
): Record<string, V | string> {
  const rest: Record<string, V | string> = {};
  const listed: string[] = [];
  let key = 'Vary';
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'vary') rest[name] = value;
    else {
      key = name;
      listed.push(...String(value).split(','));
    }
  }
  const unique = new Map(
    [...listed, ...names]
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => [name.toLowerCase(), name]),
  );
  return { ...rest, [key]: [...unique.values()].join(', ') };
}

/** A JSON answer whose body is already text (a prebuilt one: lib/http/prebuilt.ts). */
export const jsonText = (status: number, body: string, headers: Record<string, string> = {}): ApiResponse => ({
  statusCode: status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body,
});

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse =>
  jsonText(status, JSON.stringify(body), headers);
