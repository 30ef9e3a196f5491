import { operations } from './operations.js';
import type { ErrorCode, Operations, OperationsWithRequiredInput } from './types.js';

/**
 * The typed TypeScript client of medspa-api (API reference, typed client). Its types are generated from
 * the route table's schemas (./types.ts) and its operation map is plain data (./operations.ts):
 * importing it pulls in no server code, so it runs in browsers and under any bundler, and
 * type-checks under `moduleResolution` NodeNext and Bundler alike.
 *
 * What it does for you: exchanges the credential for a token (once for concurrent first calls)
 * and again when the token expires or a call answers 401 (one retry); sends an Idempotency-Key
 * with every POST that takes one; retries 429 (after `Retry-After`) and 5xx or network failures
 * of GETs and keyed POSTs with exponential backoff; times out each attempt; throws a
 * `MedspaApiError` for every failure, non-JSON ones too; pages lists with `paginate`.
 */

export type * from './types.js';
export type OperationName = keyof Operations;
/** What one operation takes: `params`, `query` and `body` as the API names them. */
export type OperationInput<Op extends OperationName> = Operations[Op]['input'];
/** An operation's `data`. */
export type OperationData<Op extends OperationName> = Operations[Op]['output'];
/** Operations that answer a page of a list (`paginate` walks them). */
export type ListOperationName = { [Op in OperationName]: Operations[Op]['item'] extends never ? never : Op }[OperationName];
export type ListItem<Op extends ListOperationName> = Operations[Op]['item'];

export interface Pagination {
  total: number;
  next_cursor: string | null;
}

/** The contract's success envelope (bare answers, such as the token's, are wrapped in it too). */
export interface Envelope<T> {
  success: true;
  data: T;
  pagination?: Pagination;
}
export type OperationResult<Op extends OperationName> = Envelope<OperationData<Op>>;

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

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:3000` (no trailing `/v1`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Per attempt, in ms (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first attempt, for 429, 5xx and network failures of retryable calls (default 3). */
  maxRetries?: number;
  /** The first backoff in ms, doubled each retry, with jitter (default 300). */
  retryBaseMs?: number;
  /** The longest wait between attempts, `Retry-After` included; a longer `Retry-After` is not waited for (default 20 000). */
  maxRetryDelayMs?: number;
  /** Send an Idempotency-Key with every POST that takes one (default true). */
  idempotencyKeys?: boolean;
}

export interface RequestOptions {
  /** Extra headers (`If-Match`, ...). */
  headers?: Record<string, string>;
  /** This call's Idempotency-Key (default: a new random UUID per call, the same for its retries); false sends none. */
  idempotencyKey?: string | false;
  /** Per attempt, in ms; overrides the client's. */
  timeoutMs?: number;
  /** Cancels the call, retries included. */
  signal?: AbortSignal;
}

type OperationRow = { method: string; path: string; auth: string; bare?: boolean; idempotent?: boolean; list?: boolean };
type Args<Op extends OperationName> = Op extends OperationsWithRequiredInput
  ? [input: OperationInput<Op>, options?: RequestOptions]
  : [input?: OperationInput<Op>, options?: RequestOptions];

/** Every operation as a method: `client.api.createProvider({ body })`. */
export type OperationMethods = { [Op in OperationName]: (...args: Args<Op>) => Promise<OperationResult<Op>> };

export interface AppointmentFilters {
  /** Practice-local dates (YYYY-MM-DD), both inclusive. */
  startDate?: string;
  endDate?: string;
  providerId?: string;
  clientId?: string;
  serviceId?: string;
  status?: Array<Operations['createAppointment']['output']['status']>;
  limit?: number;
  cursor?: string;
}

export interface AvailabilitySearch {
  /** Optional only when both `providerIds` and `durationMinutes` are given. */
  serviceId?: string;
  /** Practice-local dates (YYYY-MM-DD), both inclusive. */
  from: string;
  to: string;
  /** Default: every active provider certified for the service. At most 20. */
  providerIds?: string[];
  durationMinutes?: number;
  /** Default 15. */
  intervalMinutes?: number;
  roomId?: string;
  equipmentId?: string;
  /** IANA zone grouping slots into dates for a viewer elsewhere; default the practice's. */
  timeZone?: string;
}

const RETRYABLE_STATUS = (status: number) => status === 429 || status >= 500;
const REFRESH_MARGIN_MS = 30_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

const newIdempotencyKey = () => globalThis.crypto.randomUUID();

/** A timeout for one attempt, joined with the caller's signal. */
function attemptSignal(timeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([timeout, signal]) : timeout;
}

export class MedspaClient {
  /** Every operation by its contract name, typed by its schemas. */
  readonly api: OperationMethods;

  private token?: { value: string; expiresAt: number };
  /** The exchange in flight: concurrent first calls share it. */
  private exchanging?: Promise<string>;
  private readonly fetcher: typeof fetch;
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions) {
    this.fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.api = Object.fromEntries(
      Object.keys(operations).map((operation) => [operation, (...args: unknown[]) => (this.call as (...a: unknown[]) => unknown)(operation, ...args)]),
    ) as unknown as OperationMethods;
  }

  /** Any operation by name: `client.call('createClient', { body: { first_name: 'Olivia', last_name: 'Hart' } })`. */
  async call<Op extends OperationName>(operation: Op, ...[input, requestOptions = {}]: Args<Op>): Promise<OperationResult<Op>> {
    const route: OperationRow = operations[operation as keyof typeof operations];
    if (!route) throw new TypeError(`unknown operation ${String(operation)}`);
    const { params, query, body } = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')));
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      search.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const url = `${this.baseUrl}${path}${search.size ? `?${search}` : ''}`;
    const headers: Record<string, string> = { accept: 'application/json', ...requestOptions.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const keyed = route.idempotent === true && this.options.idempotencyKeys !== false && requestOptions.idempotencyKey !== false;
    if (keyed) headers['idempotency-key'] = typeof requestOptions.idempotencyKey === 'string' ? requestOptions.idempotencyKey : newIdempotencyKey();
    const hasKey = Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
    // Safe to repeat: reads, and POSTs the server deduplicates by their key.
    const retryable = route.method === 'GET' || (route.method === 'POST' && hasKey);
    const payload = await this.send(route, url, {
      method: route.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      retryable,
      timeoutMs: requestOptions.timeoutMs ?? this.options.timeoutMs ?? 30_000,
      signal: requestOptions.signal,
    });
    return (route.bare ? { success: true, data: payload } : payload) as OperationResult<Op>;
  }

  /**
   * Every item of a list, page after page: `for await (const client of api.paginate('listClients', { query: { q: 'oli' } }))`.
   * `query.limit` is the page size (default 100); `query.cursor` is where to start.
   */
  async *paginate<Op extends ListOperationName>(operation: Op, ...[input, requestOptions]: Args<Op>): AsyncGenerator<ListItem<Op>, void, undefined> {
    const base = (input ?? {}) as { query?: Record<string, unknown> };
    let cursor = base.query?.cursor as string | undefined;
    do {
      const query = { limit: 100, ...base.query, ...(cursor ? { cursor } : {}) };
      const page = (await (this.call as (...a: unknown[]) => Promise<unknown>)(operation, { ...base, query }, requestOptions)) as Envelope<Array<ListItem<Op>>>;
      for (const item of page.data) yield item;
      cursor = page.pagination?.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Forgets the token: the next call exchanges the credential again. */
  signOut(): void {
    this.token = undefined;
  }

  // ---- appointments, by the seed's operation names (API reference, typed client) ---------------------------

  getAppointments(filters: AppointmentFilters = {}, options?: RequestOptions) {
    return this.call(
      'getAppointments',
      {
        query: {
          from: filters.startDate, to: filters.endDate, provider_id: filters.providerId, client_id: filters.clientId,
          service_id: filters.serviceId, status: filters.status?.join(','), limit: filters.limit, cursor: filters.cursor,
        },
      },
      options,
    );
  }
  getAppointment(id: string, options?: RequestOptions) {
    return this.call('getAppointment', { params: { id } }, options);
  }
  createAppointment(body: OperationInput<'createAppointment'>['body'], options?: RequestOptions) {
    return this.call('createAppointment', { body }, options);
  }
  updateAppointment(id: string, body: OperationInput<'updateAppointment'>['body'], options: RequestOptions & { ifMatch?: number } = {}) {
    return this.call('updateAppointment', { params: { id }, body }, withIfMatch(options));
  }
  updateAppointmentStatus(id: string, status: OperationInput<'updateAppointmentStatus'>['body']['status'], options?: RequestOptions) {
    return this.call('updateAppointmentStatus', { params: { id }, body: { status } }, options);
  }
  cancelAppointment(id: string, reason?: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.call('cancelAppointment', { params: { id }, body: reason === undefined ? {} : { reason } }, withIfMatch(options));
  }
  markNoShow(id: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.call('markNoShow', { params: { id } }, withIfMatch(options));
  }
  deleteAppointment(id: string, options: RequestOptions & { ifMatch?: number } = {}) {
    return this.call('deleteAppointment', { params: { id } }, withIfMatch(options));
  }
  sendReminder(id: string, options?: RequestOptions) {
    return this.call('sendReminder', { params: { id } }, options);
  }
  recordTreatment(id: string, body: OperationInput<'recordTreatment'>['body'], options?: RequestOptions) {
    return this.call('recordTreatment', { params: { id }, body }, options);
  }
  checkProviderAvailability(providerId: string, start: string, end: string, options: { roomId?: string; equipmentId?: string } & RequestOptions = {}) {
    return this.call('checkProviderAvailability', { params: { id: providerId }, query: { start, end, room_id: options.roomId, equipment_id: options.equipmentId } }, options);
  }
  getAvailableSlots(providerId: string, date: string, durationMinutes: number, intervalMinutes = 15, options: { roomId?: string; equipmentId?: string } & RequestOptions = {}) {
    return this.call(
      'getAvailableSlots',
      {
        params: { id: providerId },
        query: { date, duration_minutes: durationMinutes, interval_minutes: intervalMinutes, room_id: options.roomId, equipment_id: options.equipmentId },
      },
      options,
    );
  }
  /** Bookable slots per provider and practice-local day, `from`..`to` inclusive (at most 31 days). */
  searchAvailability(search: AvailabilitySearch, options?: RequestOptions) {
    return this.call(
      'searchAvailability',
      {
        query: {
          service_id: search.serviceId, from: search.from, to: search.to, provider_id: search.providerIds?.join(','),
          duration_minutes: search.durationMinutes, interval_minutes: search.intervalMinutes, room_id: search.roomId,
          equipment_id: search.equipmentId, time_zone: search.timeZone,
        },
      },
      options,
    );
  }

  // ---- transport ----------------------------------------------------------------------------

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + REFRESH_MARGIN_MS) return this.token.value;
    this.exchanging ??= this.exchange().finally(() => {
      this.exchanging = undefined;
    });
    return this.exchanging;
  }

  private async exchange(): Promise<string> {
    const body = (await this.send({ method: 'POST', path: '/v1/auth/token', auth: 'public' }, `${this.baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: this.options.clientId, client_secret: this.options.clientSecret }),
      // Exchanging twice is harmless: a token is not a resource.
      retryable: true,
      timeoutMs: this.options.timeoutMs ?? 30_000,
    })) as { access_token: string; expires_in: number };
    this.token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  /** One call with its retries: token refresh after a 401 (once), backoff for 429/5xx/network failures. */
  private async send(
    route: OperationRow,
    url: string,
    request: { method: string; headers: Record<string, string>; body?: string; retryable: boolean; timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    const maxRetries = this.options.maxRetries ?? 3;
    let refreshed = false;
    for (let attempt = 0; ; attempt += 1) {
      const headers = { ...request.headers };
      let token: string | undefined;
      if (route.auth !== 'public') {
        token = await this.accessToken();
        headers.authorization = `Bearer ${token}`;
      }
      let response: Response;
      try {
        response = await this.fetcher(url, { method: request.method, headers, body: request.body, signal: attemptSignal(request.timeoutMs, request.signal) });
      } catch (cause) {
        if (request.signal?.aborted) throw cause;
        const timedOut = (cause as { name?: string })?.name === 'TimeoutError';
        const error = new MedspaApiError({
          code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
          message: timedOut ? `${request.method} ${url}: no answer within ${request.timeoutMs} ms` : `${request.method} ${url}: ${(cause as Error)?.message ?? 'network error'}`,
          status: 0,
          cause,
        });
        if (!request.retryable || attempt >= maxRetries) throw error;
        await sleep(this.backoff(attempt), request.signal);
        continue;
      }
      const text = await response.text();
      if (response.ok) {
        if (text === '') return undefined;
        try {
          return JSON.parse(text);
        } catch (cause) {
          throw new MedspaApiError({
            code: 'INVALID_RESPONSE', message: `${request.method} ${url}: the answer is not JSON`, status: response.status,
            requestId: requestIdOf(response), body: text.slice(0, 2048), cause,
          });
        }
      }
      const error = toError(response, text);
      if (response.status === 401 && token !== undefined && !refreshed) {
        // Expired or revoked token: exchange again (unless another call already did) and retry once.
        refreshed = true;
        if (this.token?.value === token) this.token = undefined;
        continue;
      }
      // A 429 was refused before anything ran, so any call may repeat it; a 5xx only when repeating is safe.
      const canRetry = response.status === 429 || (request.retryable && RETRYABLE_STATUS(response.status));
      if (!canRetry || attempt >= maxRetries) throw error;
      const wait = error.retryAfter !== undefined ? error.retryAfter * 1000 : this.backoff(attempt);
      if (wait > (this.options.maxRetryDelayMs ?? 20_000)) throw error;
      await sleep(wait, request.signal);
    }
  }

  /** Exponential backoff with full jitter: up to base * 2^attempt, capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxRetryDelayMs ?? 20_000, (this.options.retryBaseMs ?? 300) * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }
}

const withIfMatch = (options: RequestOptions & { ifMatch?: number }): RequestOptions => {
  const { ifMatch, ...rest } = options;
  return ifMatch === undefined ? rest : { ...rest, headers: { ...rest.headers, 'if-match': `"${ifMatch}"` } };
};

const requestIdOf = (response: Response) => response.headers.get('x-request-id') ?? response.headers.get('apigw-requestid') ?? undefined;

/** The API's error envelope when the body is one; otherwise an HTTP_ERROR carrying the raw body. */
function toError(response: Response, text: string): MedspaApiError {
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const envelope = (parsed as { success?: unknown; error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: unknown } } | undefined);
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
  const gatewayMessage = (parsed as { message?: unknown } | undefined)?.message;
  return new MedspaApiError({
    code: response.status === 429 ? 'RATE_LIMITED' : 'HTTP_ERROR',
    message: `HTTP ${response.status}${typeof gatewayMessage === 'string' ? `: ${gatewayMessage}` : response.statusText ? ` ${response.statusText}` : ''}`,
    status: response.status,
    requestId: requestIdOf(response),
    body: text.slice(0, 2048),
    retryAfter,
  });
}
