/// <reference lib="dom" />
/**
 * The public API (API reference, online booking), called with the page's publishable key and, for a booking's own
 * routes, its manage token. Requests and answers are typed by the generated client's schema
 * (lib/client/schema.ts, type-only: no bytes in the bundle). Answers come in the API's
 * `{ success, data }` envelope (a bare body is taken as is); errors in
 * `{ error: { code, message, details?, request_id } }`.
 *
 * Not lib/client's transport: it would take the script past its size budget (../README.md,
 * sizes), and it needs AbortSignal.timeout, newer than the browsers the page supports.
 */
import type { components, paths } from '../../client/schema';

type Schemas = components['schemas'];
export type Practice = Schemas['PublicPractice'];
export type Service = Schemas['PublicService'];
export type AvailabilityEntry = Schemas['PublicAvailabilityEntry'];
export type Booking = Schemas['PublicBooking'];
export type Hold = Schemas['PublicHold'];
export type ErrorCode = Schemas['ErrorCode'];
export type PublicForm = Schemas['FormNeeded'];

/** The public operations by path, relative as the page calls them (so a stage path in its base stays). */
type Public = {
  [P in keyof paths as P extends `/${infer Rest extends `v1/public/${string}`}` ? Rest : never]: paths[P];
};
type Method = 'get' | 'post' | 'delete';
type PathOf<M extends Method> = { [P in keyof Public]: Public[P][M] extends object ? P : never }[keyof Public];
type Operation<M extends Method, P extends PathOf<M>> = Extract<Public[P][M], object>;
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/** What an operation takes, as the API names its parts: `params` (the path's), `query`, `body`; none it does not take. */
type Input<O> = (O extends { parameters: { path: infer Params } } ? { params: Params } : { params?: never }) &
  (O extends { parameters: { query: infer Query } } ? { query: Query } : { query?: never }) &
  (O extends { requestBody: infer Body }
    ? { body: Json<Body> }
    : O extends { requestBody?: infer Body }
      ? { body?: Json<NonNullable<Body>> }
      : { body?: never });
/** The `data` of an operation's success answer. */
type Data<O> = O extends { responses: infer Answers }
  ? Json<Answers[keyof Answers]> extends { data: infer D }
    ? D
    : never
  : never;

/** POST /v1/public/bookings's body: a time, or a held time (`hold_id`). */
export type BookingRequest = Input<Operation<'post', 'v1/public/bookings'>>['body'];
export type HeldBookingRequest = Extract<BookingRequest, { hold_id: string }>;

export interface Problem {
  status: number;
  /** The contract's code; NETWORK when no answer came, UNEXPECTED for an answer without one. */
  code: ErrorCode | 'NETWORK' | 'UNEXPECTED';
  message: string;
  details: { path: string; message: string }[];
  /** Seconds, from Retry-After. */
  retryAfter: number | null;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

export const problemOf = (error: unknown): Problem =>
  error instanceof ApiError
    ? error.problem
    : { status: 0, code: 'UNEXPECTED', message: String(error), details: [], retryAfter: null };

/** Failures after which the same submission may be sent again, under the same Idempotency-Key. */
export const retryable = (problem: Problem) =>
  problem.code === 'NETWORK' ||
  problem.status >= 500 ||
  problem.code === 'RATE_LIMITED' ||
  problem.code === 'IDEMPOTENCY_KEY_IN_USE';

/** The chosen time is no longer bookable: the times shown are stale. */
export const timeRefused = (problem: Problem) =>
  problem.code === 'SLOT_UNAVAILABLE' || problem.details.some((detail) => detail.path === 'scheduled_at');

export interface Api {
  get<P extends PathOf<'get'>>(
    path: P,
    input: Input<Operation<'get', P>>,
    token?: string,
  ): Promise<Data<Operation<'get', P>>>;
  post<P extends PathOf<'post'>>(
    path: P,
    input: Input<Operation<'post', P>>,
    idempotencyKey: string,
    token?: string,
  ): Promise<Data<Operation<'post', P>>>;
  /** Sent with `keepalive`, so a release still goes out while the page is being left (pagehide). */
  delete<P extends PathOf<'delete'>>(
    path: P,
    input: Input<Operation<'delete', P>>,
    token: string,
  ): Promise<Data<Operation<'delete', P>>>;
}

/**
 * The header a token goes in: a hold's (`X-Hold-Token`) for the holds and for booking a held time
 * (the only token POST /v1/public/bookings takes), else a booking's manage token (`X-Booking-Token`).
 */
const tokenHeader = (path: string) =>
  path === 'v1/public/bookings' || path.startsWith('v1/public/holds') ? 'x-hold-token' : 'x-booking-token';

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export function createApi(base: string, key: string): Api {
  async function call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    { params = {}, query = {}, body }: Call,
    token?: string,
    idempotencyKey?: string,
  ): Promise<any> {
    const url = new URL(
      path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name])),
      base,
    );
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json', 'x-publishable-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers[tokenHeader(path)] = token;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
        keepalive: method === 'DELETE',
      });
    } catch {
      throw new ApiError({ status: 0, code: 'NETWORK', message: 'No answer', details: [], retryAfter: null });
    }
    let payload: any = null;
    try {
      payload = await response.json();
    } catch {
      // Not JSON (a gateway's page): judged by its status below.
    }
    if (response.ok)
      return payload && typeof payload === 'object' && payload.success === true && 'data' in payload
        ? payload.data
        : payload;
    const error = payload?.error;
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    throw new ApiError({
      status: response.status,
      code:
        typeof error?.code === 'string'
          ? error.code
          : response.status === 429
            ? 'RATE_LIMITED'
            : response.status >= 500
              ? 'INTERNAL_ERROR'
              : 'UNEXPECTED',
      message: typeof error?.message === 'string' ? error.message : response.statusText,
      details: Array.isArray(error?.details) ? error.details.filter((d: any) => d && typeof d.path === 'string') : [],
      retryAfter: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    });
  }
  return {
    get: (path, input, token) => call('GET', path, input, token),
    post: (path, input, idempotencyKey, token) => call('POST', path, input, token, idempotencyKey),
    delete: (path, input, token) => call('DELETE', path, input, token),
  };
}

function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID needs a secure context; a page on plain http elsewhere than localhost still gets 122 random bits.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One form's submissions: each new submission gets a fresh Idempotency-Key; sending the same body
 * again after a failure that may be retried (no answer, 5xx, 429, still in progress) reuses it, so
 * a retry can never book twice. Any other answer settles the submission.
 */
export class Submission {
  private key = '';
  private fingerprint = '';

  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (!this.key || fingerprint !== this.fingerprint) {
      this.key = newKey();
      this.fingerprint = fingerprint;
    }
    return this.key;
  }

  settle(problem?: Problem): void {
    if (!problem || !retryable(problem)) this.key = '';
  }
}
