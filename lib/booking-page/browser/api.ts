/// <reference lib="dom" />
/**
 * The public API (API reference, online booking), called with the page's publishable key and, for a booking's own
 * routes, its manage token. Answers come in the API's `{ success, data }` envelope (a bare body is
 * taken as is); errors in `{ error: { code, message, details?, request_id } }`.
 */

export interface Practice {
  name: string;
  time_zone: string;
  currency: string;
  online_booking: { horizon_days: number; min_notice_minutes: number; cancel_cutoff_minutes: number };
}
export interface Service { id: string; name: string; category?: string | null; description?: string | null; duration_minutes: number; price_cents: number }
export interface PublicProvider { id: string; display_name: string }
export interface Slot { slot_start: string; slot_end: string }
export interface AvailabilityEntry { date: string; provider: PublicProvider; slots: Slot[] }
export interface Booking {
  appointment_id: string;
  status: string;
  scheduled_at: string;
  duration_minutes: number;
  service: { id: string; name: string };
  provider: PublicProvider;
  manage_token?: string;
}

export interface Problem {
  status: number;
  /** The contract's code; NETWORK when no answer came, UNEXPECTED for an answer without one. */
  code: string;
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
  error instanceof ApiError ? error.problem : { status: 0, code: 'UNEXPECTED', message: String(error), details: [], retryAfter: null };

/** Failures after which the same submission may be sent again, under the same Idempotency-Key. */
export const retryable = (problem: Problem) =>
  problem.code === 'NETWORK' || problem.status >= 500 || problem.code === 'RATE_LIMITED' || problem.code === 'IDEMPOTENCY_KEY_IN_USE';

type Query = Record<string, string | undefined>;

export interface Api {
  get<T>(path: string, query?: Query, token?: string): Promise<T>;
  post<T>(path: string, body: unknown, idempotencyKey: string, token?: string): Promise<T>;
}

export function createApi(base: string, key: string): Api {
  async function call<T>(method: 'GET' | 'POST', path: string, options: { query?: Query; body?: unknown; token?: string; idempotencyKey?: string }): Promise<T> {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = { accept: 'application/json', 'x-publishable-key': key };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers['x-booking-token'] = options.token;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
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
    if (response.ok) return payload && typeof payload === 'object' && payload.success === true && 'data' in payload ? payload.data : payload;
    const error = payload?.error;
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    throw new ApiError({
      status: response.status,
      code: typeof error?.code === 'string' ? error.code : response.status === 429 ? 'RATE_LIMITED' : response.status >= 500 ? 'INTERNAL_ERROR' : 'UNEXPECTED',
      message: typeof error?.message === 'string' ? error.message : response.statusText,
      details: Array.isArray(error?.details) ? error.details.filter((d: any) => d && typeof d.path === 'string') : [],
      retryAfter: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
    });
  }
  return {
    get: (path, query, token) => call('GET', path, { query, token }),
    post: (path, body, idempotencyKey, token) => call('POST', path, { body, token, idempotencyKey }),
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
