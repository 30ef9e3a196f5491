import type { ErrorCode } from './schema.js';

/** Codes of failures that never reached the API's envelope. */
export type ClientErrorCode =
  /** No answer: the connection failed. */
  | 'NETWORK_ERROR'
  /** No answer within `timeoutMs`. */
  | 'TIMEOUT'
  /** An error answer that is not the API's envelope (a gateway, a proxy, an HTML error page). */
  | 'HTTP_ERROR'
  /** A success answer whose body is not JSON. */
  | 'INVALID_RESPONSE';

/** A failed call: the contract's error code (or a client one), HTTP status, field problems and request id. */
export class MedspaApiError extends Error {
  readonly code: ErrorCode | ClientErrorCode;
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly requestId?: string;
  readonly details?: Array<{ path: string; message: string; [key: string]: unknown }>;
  /** The raw body of an answer that was not the API's error envelope (first 2 KB). */
  readonly body?: string;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter?: number;

  constructor(init: {
    code: ErrorCode | ClientErrorCode;
    message: string;
    status: number;
    requestId?: string;
    details?: MedspaApiError['details'];
    body?: string;
    retryAfter?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'MedspaApiError';
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.body = init.body;
    this.retryAfter = init.retryAfter;
  }
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

export const requestIdOf = (response: Response) =>
  response.headers.get('x-request-id') ?? response.headers.get('apigw-requestid') ?? undefined;

/** The answer's body as JSON; a success that is not JSON is an INVALID_RESPONSE. */
export function parseSuccess(response: Response, text: string | undefined, what: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new MedspaApiError({
      code: 'INVALID_RESPONSE',
      message: `${what}: the answer is not JSON`,
      status: response.status,
      requestId: requestIdOf(response),
      body: text.slice(0, 2048),
      cause,
    });
  }
}

/**
 * The API's error envelope when the body is one; otherwise an HTTP_ERROR carrying the raw body.
 * `body` as openapi-fetch gives an error answer's: parsed when it is JSON, else the text.
 */
export function toError(response: Response, body: unknown): MedspaApiError {
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  const envelope = body as
    | {
        success?: unknown;
        error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown };
        message?: unknown;
      }
    | undefined;
  const error = envelope?.success === false ? envelope.error : undefined;
  if (error && typeof error.code === 'string') {
    return new MedspaApiError({
      code: error.code as ErrorCode,
      message: typeof error.message === 'string' ? error.message : `HTTP ${response.status}`,
      status: response.status,
      requestId: typeof error.request_id === 'string' ? error.request_id : requestIdOf(response),
      details: Array.isArray(error.details) ? (error.details as MedspaApiError['details']) : undefined,
      retryAfter,
    });
  }
  const gatewayMessage = typeof envelope === 'object' ? envelope?.message : undefined;
  return new MedspaApiError({
    code: response.status === 429 ? 'RATE_LIMITED' : 'HTTP_ERROR',
    message: `HTTP ${response.status}${typeof gatewayMessage === 'string' ? `: ${gatewayMessage}` : response.statusText ? ` ${response.statusText}` : ''}`,
    status: response.status,
    requestId: requestIdOf(response),
    body: (typeof body === 'string' ? body : (JSON.stringify(body) ?? '')).slice(0, 2048),
    retryAfter,
  });
}
