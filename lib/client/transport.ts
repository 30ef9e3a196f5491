import createClient, { type Middleware } from 'openapi-fetch';
import { MedspaApiError, parseSuccess, retryAfterSeconds, toError } from './errors.js';

/**
 * The client's transport (API reference, typed client): openapi-fetch builds each request from
 * the operation's path, params and body, and three middlewares add what every call needs:
 * - `retry`: 429 after `Retry-After` (nothing ran, so any call), 5xx and no answer when repeating
 *   is safe (reads and keyed POSTs), with exponential backoff and jitter;
 * - `bearer`: the access token on authenticated calls, and after a 401 a new one, once (the public
 *   booking operations send the publishable key instead);
 * - `idempotencyKey`: one key per call, the same for its retries (they send this request again).
 * Each attempt reaches the integrator's `fetch` as `(url, init)` with a timeout of its own.
 */

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:3000` (no trailing `/v1`). */
  baseUrl: string;
  /** The credential of the staff operations (server side only: the secret is confidential). */
  clientId?: string;
  clientSecret?: string;
  /** The publishable key (`pk_...`) of the public booking operations (`/v1/public/*`): browsers may hold it. */
  publishableKey?: string;
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

/** One row of the generated operation table (./operations.ts). */
export interface OperationRow {
  method: string;
  path: string;
  auth: 'public' | 'token' | 'publishable';
  /** Answers without the `{ success, data }` envelope (it is added). */
  bare?: boolean;
  /** Takes an Idempotency-Key. */
  idempotent?: boolean;
}

export interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The access token: one exchange for concurrent first calls, another 30 s before it expires or after a 401. */
export class Tokens {
  private token?: { value: string; expiresAt: number };
  private exchanging?: Promise<string>;

  constructor(private readonly exchange: () => Promise<{ access_token: string; expires_in: number }>) {}

  get(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now() + 30_000) return Promise.resolve(this.token.value);
    this.exchanging ??= this.exchange()
      .then(({ access_token, expires_in }) => {
        this.token = { value: access_token, expiresAt: Date.now() + expires_in * 1000 };
        return access_token;
      })
      .finally(() => {
        this.exchanging = undefined;
      });
    return this.exchanging;
  }

  /** Forgets `value` (unless another call already replaced it), or whatever token is held. */
  forget(value?: string): void {
    if (value === undefined || this.token?.value === value) this.token = undefined;
  }
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (!signal) return void setTimeout(resolve, ms);
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The request openapi-fetch builds and the middlewares change: what the attempts read of it. A
 * platform Request would build a body stream and an AbortSignal for every call, only to be taken
 * apart again by `attempts` (with `redirect: 'error'` below, about 5% of the client's CPU a call
 * on Node 20).
 */
class OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  /** The caller's, if any (RequestOptions.signal). */
  readonly signal?: AbortSignal;

  constructor(
    url: string,
    init: { method?: string; headers?: ConstructorParameters<typeof Headers>[0]; signal?: AbortSignal | null },
  ) {
    this.url = url;
    this.method = init.method ?? 'GET';
    this.headers = new Headers(init.headers);
    this.signal = init.signal ?? undefined;
  }
}

/**
 * One attempt through the integrator's fetch; no answer (or none in time) is a MedspaApiError with
 * status 0. `body` is the call's JSON text as serialized (never read back from the Request's stream:
 * a clone and a read of it cost more CPU than the rest of the client), sent again by each retry.
 */
function attempts(fetcher: typeof fetch, timeoutMs: number, body: () => string | undefined) {
  return async (request: Request): Promise<Response> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    try {
      // The API never redirects: a base URL that does is misconfigured, and an error says so (no
      // token sent on to where it points). It also spares fetch a copy of every request.
      return await fetcher(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: body(),
        signal,
        redirect: 'error',
      });
    } catch (cause) {
      if (request.signal?.aborted) throw cause;
      const timedOut = (cause as { name?: string } | undefined)?.name === 'TimeoutError';
      const what = `${request.method} ${request.url}`;
      throw new MedspaApiError({
        code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
        message: timedOut
          ? `${what}: no answer within ${timeoutMs} ms`
          : `${what}: ${(cause as Error | undefined)?.message ?? 'network error'}`,
        status: 0,
        cause,
      });
    }
  };
}

interface RetryPolicy {
  maxRetries: number;
  retryBaseMs: number;
  maxRetryDelayMs: number;
}

function retry(policy: RetryPolicy, safe: (request: Request) => boolean): Middleware {
  let attempt = 0;
  /** Exponential backoff with jitter: between half and all of base * 2^attempt, capped. */
  const backoff = () => {
    const ceiling = Math.min(policy.maxRetryDelayMs, policy.retryBaseMs * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  };
  /** How long to wait before sending again after `outcome` (an answer or a thrown error); undefined: stop. */
  const delay = (request: Request, outcome: unknown): number | undefined => {
    if (attempt >= policy.maxRetries) return undefined;
    if (!(outcome instanceof Response))
      return outcome instanceof MedspaApiError && outcome.status === 0 && safe(request) ? backoff() : undefined;
    if (outcome.status !== 429 && !(outcome.status >= 500 && safe(request))) return undefined;
    const retryAfter = retryAfterSeconds(outcome.headers.get('retry-after'));
    const wait = retryAfter === undefined ? backoff() : retryAfter * 1000;
    return wait > policy.maxRetryDelayMs ? undefined : wait;
  };
  const persist = async (request: Request, outcome: unknown, send: typeof fetch): Promise<unknown> => {
    for (let wait = delay(request, outcome); wait !== undefined; wait = delay(request, outcome)) {
      await sleep(wait, request.signal);
      attempt += 1;
      outcome = await send(request).catch((error: unknown) => error);
    }
    return outcome;
  };
  return {
    async onResponse({ request, response, options }) {
      const outcome = await persist(request, response, options.fetch);
      if (outcome instanceof Response) return outcome;
      throw outcome;
    },
    async onError({ request, error, options }) {
      const outcome = await persist(request, error, options.fetch);
      if (outcome instanceof Response || outcome instanceof Error) return outcome;
      throw outcome;
    },
  };
}

function bearer(tokens: Tokens): Middleware {
  let sent: string | undefined;
  let refreshed = false;
  const authorize = async (request: Request) => {
    sent = await tokens.get();
    request.headers.set('authorization', `Bearer ${sent}`);
  };
  return {
    async onRequest({ request }) {
      await authorize(request);
      return undefined;
    },
    async onResponse({ request, response, options }) {
      if (response.status !== 401 || refreshed) return undefined;
      // Expired or revoked: exchange again (unless another call already did) and send once more.
      refreshed = true;
      tokens.forget(sent);
      await authorize(request);
      return options.fetch(request);
    },
  };
}

/** The public booking operations: the publishable key, never a token. */
const publishable = (key: string | undefined): Middleware => ({
  onRequest({ request }) {
    if (!key)
      throw new Error("This operation needs the client's publishableKey (a pk_... key from POST /v1/publishable-keys)");
    request.headers.set('x-publishable-key', key);
    return undefined;
  },
});

const idempotencyKey = (key?: string): Middleware => ({
  onRequest({ request }) {
    request.headers.set(
      'idempotency-key',
      key ?? request.headers.get('idempotency-key') ?? globalThis.crypto.randomUUID(),
    );
    return undefined;
  },
});

type Send = (
  method: string,
  path: string,
  init: object,
) => Promise<{ data?: string; error?: unknown; response: Response }>;

export class Transport {
  private readonly request: Send;
  private readonly fetcher: typeof fetch;

  constructor(
    private readonly options: ClientOptions,
    private readonly tokens: Tokens,
  ) {
    // Late-bound, so a `fetch` replaced after construction (tests, polyfills) is the one used.
    this.fetcher = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
    const client = createClient({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { accept: 'application/json' },
      Request: OutgoingRequest as unknown as typeof Request,
      // Lists as the API takes them: `status=a,b`.
      querySerializer: { array: { style: 'form', explode: false } },
    });
    // Typed by operation name above this layer (./types.ts), not by path here.
    this.request = client.request as unknown as Send;
  }

  /** One operation with its retries: its `data` in the `{ success, data, pagination? }` envelope, or a thrown MedspaApiError. */
  async send(
    row: OperationRow,
    input: CallInput = {},
    requestOptions: RequestOptions = {},
    alwaysSafe = false,
  ): Promise<unknown> {
    const { params, query, body } = input;
    const keyed =
      row.idempotent === true && this.options.idempotencyKeys !== false && requestOptions.idempotencyKey !== false;
    const safe = (request: Request) =>
      alwaysSafe || request.method === 'GET' || (request.method === 'POST' && request.headers.has('idempotency-key'));
    const policy = {
      maxRetries: this.options.maxRetries ?? 3,
      retryBaseMs: this.options.retryBaseMs ?? 300,
      maxRetryDelayMs: this.options.maxRetryDelayMs ?? 20_000,
    };
    let bodyText: string | undefined;
    const { data, error, response } = await this.request(row.method, row.path, {
      params: { path: params, query },
      body,
      // Every body is JSON (the API takes nothing else from this client); its text is kept for the attempts.
      bodySerializer: (value: unknown) => (bodyText = JSON.stringify(value)),
      headers: requestOptions.headers,
      signal: requestOptions.signal,
      parseAs: 'text',
      fetch: attempts(this.fetcher, requestOptions.timeoutMs ?? this.options.timeoutMs ?? 30_000, () => bodyText),
      // onRequest in this order, onResponse in the reverse: a refreshed token's answer still gets retries.
      middleware: [
        retry(policy, safe),
        ...(row.auth === 'token' ? [bearer(this.tokens)] : []),
        ...(row.auth === 'publishable' ? [publishable(this.options.publishableKey)] : []),
        ...(keyed
          ? [
              idempotencyKey(
                typeof requestOptions.idempotencyKey === 'string' ? requestOptions.idempotencyKey : undefined,
              ),
            ]
          : []),
      ],
    });
    if (!response.ok) throw toError(response, error);
    const payload = parseSuccess(response, data, `${row.method} ${response.url || row.path}`);
    return row.bare ? { success: true, data: payload } : payload;
  }
}
