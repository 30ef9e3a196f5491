import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MedspaApiError, MedspaClient } from '../../lib/client/index';

/** A scripted server: each call gets the next answer for its path (the token endpoint has its own). */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers },
  });
const ok = (data: unknown, extra: object = {}) => json(200, { success: true, data, ...extra });
const failure = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { success: false, error: { code, message: code, request_id: 'req-err' } }, headers);

function fakeApi(
  answers: Array<Response | ((seen: Seen) => Response | Promise<Response>)>,
  options: { tokenDelayMs?: number } = {},
) {
  const seen: Seen[] = [];
  let tokens = 0;
  const fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = String(input);
    const call: Seen = {
      method: init.method ?? 'GET',
      url,
      headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>)),
      body: init.body as string | undefined,
    };
    if (url.endsWith('/v1/auth/token')) {
      tokens += 1;
      if (options.tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
      return json(200, { access_token: `token-${tokens}`, token_type: 'Bearer', expires_in: 3600, scope: 'admin' });
    }
    seen.push(call);
    const next = answers.shift();
    if (!next) throw new Error(`unexpected call ${call.method} ${url}`);
    return typeof next === 'function' ? next({ ...call, headers: call.headers }) : next;
  };
  return { fetch: fetch as typeof globalThis.fetch, seen, tokens: () => tokens };
}

const clientFor = (
  api: ReturnType<typeof fakeApi>,
  options: Partial<ConstructorParameters<typeof MedspaClient>[0]> = {},
) =>
  new MedspaClient({
    baseUrl: 'http://api.test',
    clientId: 'id',
    clientSecret: 'secret',
    fetch: api.fetch,
    retryBaseMs: 1,
    ...options,
  });

const PRACTICE = { id: 'p', name: 'Glow' };

describe('typed client: tokens', () => {
  it('makes one token exchange for concurrent first calls', async () => {
    const api = fakeApi(
      Array.from({ length: 5 }, () => ok(PRACTICE)),
      { tokenDelayMs: 30 },
    );
    const client = clientFor(api);
    await Promise.all(Array.from({ length: 5 }, () => client.api.getPractice()));
    expect(api.tokens()).toBe(1);
    expect(api.seen.every((call) => call.headers.authorization === 'Bearer token-1')).toBe(true);
  });

  it('exchanges again after a 401 and retries once; a second 401 is thrown', async () => {
    const api = fakeApi([failure(401, 'UNAUTHORIZED'), ok(PRACTICE)]);
    const client = clientFor(api);
    expect((await client.api.getPractice()).data).toEqual(PRACTICE);
    expect(api.tokens()).toBe(2);
    expect(api.seen.map((call) => call.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);

    const again = fakeApi([failure(401, 'UNAUTHORIZED'), failure(401, 'UNAUTHORIZED')]);
    const error = await clientFor(again)
      .api.getPractice()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MedspaApiError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(again.seen).toHaveLength(2);
  });
});

describe('typed client: retries', () => {
  it('retries a 429 after Retry-After (any method: nothing ran)', async () => {
    const api = fakeApi([failure(429, 'RATE_LIMITED', { 'retry-after': '1' }), ok({ id: 'x' })]);
    const started = Date.now();
    await clientFor(api).api.updatePractice({ body: { name: 'Glow' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(api.seen).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than maxRetryDelayMs: the error carries it', async () => {
    const api = fakeApi([failure(429, 'RATE_LIMITED', { 'retry-after': '120' })]);
    const error = await clientFor(api)
      .api.getPractice()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfter: 120 });
  });

  it('retries 5xx and network failures of a GET with backoff, up to maxRetries', async () => {
    const api = fakeApi([
      failure(503, 'INTERNAL_ERROR'),
      () => Promise.reject(new TypeError('socket hang up')),
      ok(PRACTICE),
    ]);
    expect((await clientFor(api).api.getPractice()).data).toEqual(PRACTICE);
    expect(api.seen).toHaveLength(3);

    const down = fakeApi(Array.from({ length: 3 }, () => failure(500, 'INTERNAL_ERROR')));
    const error = await clientFor(down, { maxRetries: 2 })
      .api.getPractice()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', status: 500 });
    expect(down.seen).toHaveLength(3);
  });

  it('adds an Idempotency-Key to every POST that takes one, keeps it across retries, and retries those POSTs on 5xx', async () => {
    const api = fakeApi([failure(502, 'INTERNAL_ERROR'), json(201, { success: true, data: { id: 'c1' } })]);
    const client = clientFor(api);
    await client.api.createClient({ body: { first_name: 'Olivia', last_name: 'Hart' } });
    const [first, second] = api.seen;
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    // Each attempt sends the whole body, as serialized once.
    expect(JSON.parse(first.body!)).toEqual({ first_name: 'Olivia', last_name: 'Hart' });
    expect(second.body).toBe(first.body);
    // The next call gets a new key.
    const next = fakeApi([json(201, { success: true, data: { id: 'c2' } })]);
    await clientFor(next).api.createClient({ body: { first_name: 'Noah', last_name: 'Castillo' } });
    expect(next.seen[0].headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
    // A caller's own key is used as given.
    const own = fakeApi([json(201, { success: true, data: { id: 'c3' } })]);
    await clientFor(own).api.createClient(
      { body: { first_name: 'Priya', last_name: 'Shah' } },
      { idempotencyKey: 'order-42' },
    );
    expect(own.seen[0].headers['idempotency-key']).toBe('order-42');
  });

  it('never repeats a POST without a key, nor a PATCH, after a 5xx', async () => {
    const post = fakeApi([failure(500, 'INTERNAL_ERROR')]);
    await expect(
      clientFor(post).api.createClient({ body: { first_name: 'A', last_name: 'B' } }, { idempotencyKey: false }),
    ).rejects.toMatchObject({ status: 500 });
    expect(post.seen).toHaveLength(1);
    expect(post.seen[0].headers['idempotency-key']).toBeUndefined();
    const patch = fakeApi([failure(500, 'INTERNAL_ERROR')]);
    await expect(clientFor(patch).api.updatePractice({ body: { name: 'x' } })).rejects.toMatchObject({ status: 500 });
    expect(patch.seen).toHaveLength(1);
    expect(patch.seen[0].headers['idempotency-key']).toBeUndefined();
  });
});

describe('typed client: timeouts and odd answers', () => {
  it('times out each attempt (TIMEOUT), retrying a GET', async () => {
    const hang = ({ signal }: { signal?: AbortSignal }) =>
      new Promise<Response>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    let attempts = 0;
    const fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
      if (String(input).endsWith('/v1/auth/token'))
        return json(200, { access_token: 't', token_type: 'Bearer', expires_in: 3600, scope: 'admin' });
      attempts += 1;
      return hang({ signal: init.signal ?? undefined });
    }) as typeof globalThis.fetch;
    const client = new MedspaClient({
      baseUrl: 'http://api.test',
      clientId: 'id',
      clientSecret: 's',
      fetch,
      timeoutMs: 50,
      maxRetries: 1,
      retryBaseMs: 1,
    });
    const started = Date.now();
    const error = await client.api.getPractice().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', status: 0 });
    expect(attempts).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('throws a typed MedspaApiError for a non-JSON error page and a non-JSON success', async () => {
    const html = new Response('<html><body>502 Bad Gateway</body></html>', {
      status: 502,
      statusText: 'Bad Gateway',
      headers: { 'content-type': 'text/html', 'apigw-requestid': 'gw-1' },
    });
    const api = fakeApi([html]);
    const error = (await clientFor(api, { maxRetries: 0 })
      .api.getPractice()
      .catch((e: unknown) => e)) as MedspaApiError;
    expect(error).toBeInstanceOf(MedspaApiError);
    expect(error).toMatchObject({ code: 'HTTP_ERROR', status: 502, requestId: 'gw-1' });
    expect(error.body).toContain('Bad Gateway');

    const gateway = fakeApi([new Response('{"message":"Too Many Requests"}', { status: 429 })]);
    await expect(clientFor(gateway, { maxRetries: 0 }).api.getPractice()).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
    });

    const notJson = fakeApi([new Response('OK', { status: 200 })]);
    await expect(clientFor(notJson).api.getPractice()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });

  it('follows no redirect (the API never sends one): the call fails, and nothing reaches where it points', async () => {
    const reached: string[] = [];
    const server = createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      if (request.url === '/v1/auth/token') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 't', token_type: 'Bearer', expires_in: 3600, scope: 'admin' }));
      } else response.writeHead(307, { location: '/elsewhere' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new MedspaClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        clientId: 'id',
        clientSecret: 's',
        maxRetries: 0,
      });
      await expect(client.api.getPractice()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
      expect(reached).toEqual(['POST /v1/auth/token', 'GET /v1/practice']);
    } finally {
      server.close();
    }
  });
});

describe('typed client: pagination', () => {
  it('walks every page of a list with for await, following next_cursor', async () => {
    const page = (ids: string[], next: string | null) =>
      ok(
        ids.map((id) => ({ id, first_name: id })),
        { pagination: { total: 5, next_cursor: next } },
      );
    const api = fakeApi([page(['a', 'b'], 'c1'), page(['c', 'd'], 'c2'), page(['e'], null)]);
    const ids: string[] = [];
    for await (const client of clientFor(api).paginate('listClients', { query: { q: 'x', limit: 2 } }))
      ids.push(client.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    const queries = api.seen.map((call) => new URL(call.url).searchParams);
    expect(queries.map((q) => q.get('cursor'))).toEqual([null, 'c1', 'c2']);
    expect(queries.every((q) => q.get('q') === 'x' && q.get('limit') === '2')).toBe(true);
  });
});

describe('typed client: publishable-key mode (browsers)', () => {
  const PUBLIC = {
    name: 'Glow',
    time_zone: 'America/New_York',
    currency: 'USD',
    online_booking: { horizon_days: 60, min_notice_minutes: 120, cancel_cutoff_minutes: 1440 },
  };

  it('sends the publishable key on public operations, never a token; no secret needed', async () => {
    const api = fakeApi([ok(PUBLIC)]);
    const client = new MedspaClient({
      baseUrl: 'http://api.test',
      publishableKey: 'pk_test',
      fetch: api.fetch,
      retryBaseMs: 1,
    });
    expect((await client.api.getPublicPractice()).data).toEqual(PUBLIC);
    expect(api.tokens()).toBe(0);
    expect(api.seen[0].headers['x-publishable-key']).toBe('pk_test');
    expect(api.seen[0].headers.authorization).toBeUndefined();
  });

  it('a staff operation without client credentials, or a public one without a key, fails before any request', async () => {
    const api = fakeApi([]);
    await expect(
      new MedspaClient({ baseUrl: 'http://api.test', publishableKey: 'pk_test', fetch: api.fetch }).api.getPractice(),
    ).rejects.toThrow(/clientId and clientSecret/);
    await expect(clientFor(api).api.getPublicPractice()).rejects.toThrow(/publishableKey/);
    expect(api.seen).toEqual([]);
  });
});
