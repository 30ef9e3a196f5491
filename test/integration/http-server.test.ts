import { get, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { dispatch, eventFor } from '../../infra/local/router';
import { MAX_HEADER_BYTES, MAX_REQUEST_TARGET_BYTES } from '../../infra/local/transport';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { logger } from '../../lib/log';
import { createPracticeWithAdmin } from '../../lib/use-cases/practice';

/** The real local HTTP server (the one `npm start` runs), in-process on a free port. */
describe('local HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  let port: number;

  beforeAll(async () => {
    server = createLocalServer();
    port = await listen(server, 0);
    baseUrl = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const practiceWithAdmin = async (name: string) => {
    const { practice, credential } = await createPracticeWithAdmin({ name }, new Date());
    return { medspaId: practice.id, clientId: credential.client_id, clientSecret: credential.client_secret };
  };

  const tokenOver = async (clientId: string, clientSecret: string) => {
    const response = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  it('GET /health answers 200 { status: "ok" } without auth', async () => {
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('GET /book.js names the address the server listens on, never the Host a request names (it is cached publicly, with no Vary)', async () => {
    const answer = await new Promise<{ status?: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        get(
          {
            host: '127.0.0.1',
            port,
            path: '/book.js',
            headers: { host: 'evil.example', 'x-forwarded-proto': 'https' },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode,
                headers: response.headers,
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          },
        ).on('error', reject);
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('public, max-age=300');
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body).toContain(`(${JSON.stringify(baseUrl)})`);
    expect(answer.body).not.toContain('evil.example');
  });

  it('HEAD /book answers as GET /book does, without the body (in the Lambda answer too: API Gateway routes it as HEAD /book)', async () => {
    const got = await fetch(`${baseUrl}/book?key=pk_unknown`);
    const head = await fetch(`${baseUrl}/book?key=pk_unknown`, { method: 'HEAD' });
    expect(head.status).toBe(got.status);
    expect(got.status).toBe(200);
    const headersOf = (response: Response) =>
      Object.fromEntries(
        [...response.headers].filter(
          ([name]) =>
            !['x-request-id', 'date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name),
        ),
      );
    expect(headersOf(head)).toEqual(headersOf(got));
    expect(head.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await got.text()).toContain('<script');
    expect(await head.text()).toBe('');
    // What the function answers, before Node's server drops a HEAD's body: no body either.
    const { event } = eventFor({ method: 'HEAD', url: '/book?key=pk_unknown' }, 'head-request');
    expect(event.routeKey).toBe('HEAD /book');
    expect((await dispatch({ method: 'HEAD', url: '/book?key=pk_unknown' })).body).toBe('');
  });

  it('exchanges a token over HTTP (JSON, form and Basic) and reads the practice with it', async () => {
    const admin = await practiceWithAdmin('HTTP Spa');

    const json = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: admin.clientId, client_secret: admin.clientSecret }),
    });
    expect(json.status).toBe(200);
    const tokenBody = (await json.json()) as Record<string, unknown>;
    expect(tokenBody).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'admin',
      access_token: expect.any(String),
    });

    const formBody = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: admin.clientId,
      client_secret: admin.clientSecret,
    });
    const form = await fetch(`${baseUrl}/v1/auth/token`, { method: 'POST', body: formBody });
    expect(form.status).toBe(200);

    const basic = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${admin.clientId}:${admin.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(200);

    for (const token of [
      tokenBody.access_token,
      ((await form.json()) as Record<string, unknown>).access_token,
      ((await basic.json()) as Record<string, unknown>).access_token,
    ]) {
      const practice = await fetch(`${baseUrl}/v1/practice`, { headers: { authorization: `Bearer ${token}` } });
      expect(practice.status).toBe(200);
      expect(practice.headers.get('etag')).toBe('"1"');
      expect(practice.headers.get('x-content-type-options')).toBe('nosniff');
      expect(practice.headers.get('strict-transport-security')).toBeTruthy();
      const body = (await practice.json()) as { success: boolean; data: { id: string; name: string } };
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({ id: admin.medspaId, name: 'HTTP Spa' });
    }
  });

  it('passes query strings, path parameters and methods through', async () => {
    const admin = await practiceWithAdmin('Routing Spa');
    const token = await tokenOver(admin.clientId, admin.clientSecret);
    const auth = { authorization: `Bearer ${token}` };

    const badLimit = await fetch(`${baseUrl}/v1/credentials?limit=0`, { headers: auth });
    expect(badLimit.status).toBe(400);
    const listed = await fetch(`${baseUrl}/v1/credentials?limit=1`, { headers: auth });
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);

    const patched = await fetch(`${baseUrl}/v1/practice`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json', 'if-match': '"1"' },
      body: JSON.stringify({ name: 'Routed Spa' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe('"2"');

    const missing = await fetch(`${baseUrl}/v1/credentials/${encodeURIComponent('ci_no such')}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('CREDENTIAL_NOT_FOUND');

    const unknown = await fetch(`${baseUrl}/v1/unknown`, { headers: auth });
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as { success: boolean; error: { code: string; request_id: string } };
    expect(unknownBody).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(unknownBody.error.request_id).toBe(unknown.headers.get('x-request-id'));

    const noToken = await fetch(`${baseUrl}/v1/practice`);
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE (not a reset), creates nothing, and keeps serving', async () => {
    const admin = await practiceWithAdmin('Big Body Spa');
    const token = await tokenOver(admin.clientId, admin.clientSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const total = async () => {
      const response = await fetch(`${baseUrl}/v1/credentials`, { headers: auth });
      return ((await response.json()) as { pagination: { total: number } }).pagination.total;
    };
    const before = await total();

    for (const size of [MAX_BODY_BYTES + 1024, 4 * 1024 * 1024]) {
      const response = await fetch(`${baseUrl}/v1/credentials`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'x'.repeat(size), role: 'admin' }),
      });
      expect(response.status).toBe(413);
      const body = (await response.json()) as { success: boolean; error: { code: string; request_id: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    }

    const malformed = await fetch(`${baseUrl}/v1/credentials`, { method: 'POST', headers: auth, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('INVALID_JSON');

    expect(await total()).toBe(before);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
  });
});

interface RawAnswer {
  statusLine: string;
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Writes bytes as they are on a new TCP connection (no HTTP client to tidy them up) and reads the answer until the server closes. */
function rawExchange(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request, 'latin1'));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let rawBody = text.slice(split + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        let decoded = '';
        for (let at = 0; ; ) {
          const lineEnd = rawBody.indexOf('\r\n', at);
          const size = parseInt(rawBody.slice(at, lineEnd), 16);
          if (!size) break;
          decoded += rawBody.slice(lineEnd + 2, lineEnd + 2 + size);
          at = lineEnd + 2 + size + 2;
        }
        rawBody = decoded;
      }
      try {
        resolve({
          statusLine,
          status: Number(statusLine.split(' ')[1]),
          headers,
          body: rawBody ? JSON.parse(rawBody) : undefined,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

describe('transport refusals on the local HTTP server (raw socket)', () => {
  let server: Server;
  let port: number;
  const warn = vi.spyOn(logger, 'warn');

  beforeAll(async () => {
    server = createLocalServer();
    port = await listen(server, 0);
  });

  afterEach(() => warn.mockClear());

  afterAll(async () => {
    warn.mockRestore();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A value no log line may contain. */
  const secret = 'do-not-log-this-value';

  /** The contract's envelope, the X-Request-Id that names it, a closed connection, and one log line without header values. */
  function expectRefusal(answer: RawAnswer, status: number, code: string) {
    expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
    expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer.body).toEqual({
      success: false,
      error: {
        code,
        message: expect.any(String),
        request_id: expect.any(String),
        ...(answer.body.error.details ? { details: expect.any(Array) } : {}),
      },
    });
    expect(answer.headers['x-request-id']).toBe(answer.body.error.request_id);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toMatchObject({ requestId: answer.body.error.request_id, status, code });
    expect(JSON.stringify(warn.mock.calls)).not.toContain(secret);
  }

  const get = (target: string, headerLines: string[] = []) =>
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headerLines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`;

  it('control: a well-formed request over the same raw socket is served', async () => {
    const answer = await rawExchange(port, get('/health', [`X-Note: ${secret}`]));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok' });
    expect(answer.headers['x-request-id']).toBeTruthy();
  });

  it(`one header over the limit (${MAX_HEADER_BYTES} bytes of request line and headers): 431 HEADERS_TOO_LARGE`, async () => {
    const answer = await rawExchange(port, get('/health', [`X-Padding: ${secret}${'p'.repeat(MAX_HEADER_BYTES)}`]));
    expectRefusal(answer, 431, 'HEADERS_TOO_LARGE');
    expect(warn.mock.calls[0][1]).toMatchObject({ reason: 'HPE_HEADER_OVERFLOW' });
  });

  it('many small headers that together pass the limit: 431 HEADERS_TOO_LARGE', async () => {
    const lines = Array.from({ length: 400 }, (_, index) => `X-Header-${index}: ${secret}`);
    expectRefusal(await rawExchange(port, get('/health', lines)), 431, 'HEADERS_TOO_LARGE');
  });

  it(`a request target over ${MAX_REQUEST_TARGET_BYTES} bytes but within the header limit: 414 URI_TOO_LONG (from the router)`, async () => {
    const target = `/v1/providers?q=${secret}${'a'.repeat(MAX_REQUEST_TARGET_BYTES)}`;
    expect(target.length).toBeLessThan(MAX_HEADER_BYTES - 100);
    expectRefusal(await rawExchange(port, get(target)), 414, 'URI_TOO_LONG');
  });

  it('a request target beyond the whole header limit: 414 URI_TOO_LONG (from the parser), not 431', async () => {
    const answer = await rawExchange(port, get(`/v1/providers?q=${secret}${'a'.repeat(2 * MAX_HEADER_BYTES)}`));
    expectRefusal(answer, 414, 'URI_TOO_LONG');
    expect(warn.mock.calls[0][1]).toMatchObject({ reason: 'HPE_HEADER_OVERFLOW' });
  });

  it.each([
    ['a control byte (0x01)', '\x01'],
    ['a NUL byte', '\x00'],
    ['DEL (0x7f)', '\x7f'],
  ])('a header value with %s: 400 VALIDATION_ERROR naming the headers', async (_name, byte) => {
    const answer = await rawExchange(port, get('/health', [`X-Note: ${secret}${byte}tail`]));
    expectRefusal(answer, 400, 'VALIDATION_ERROR');
    expect(answer.body.error.details).toEqual([{ path: 'headers', message: expect.any(String) }]);
    expect(warn.mock.calls[0][1]).toMatchObject({ reason: 'HPE_INVALID_HEADER_TOKEN' });
  });

  it('a space in a header name: 400 VALIDATION_ERROR naming the headers', async () => {
    const answer = await rawExchange(port, get('/health', [`X Note: ${secret}`]));
    expectRefusal(answer, 400, 'VALIDATION_ERROR');
    expect(answer.body.error.details[0].path).toBe('headers');
  });

  it.each([
    ['not HTTP at all', 'GARBAGE\r\n\r\n'],
    ['spaces in the target', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a control byte in the target', 'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an unknown protocol version', 'GET / HTTP/7.3\r\nHost: x\r\n\r\n'],
  ])('a malformed request line (%s): 400 VALIDATION_ERROR naming the request line', async (_name, request) => {
    const answer = await rawExchange(port, request);
    expectRefusal(answer, 400, 'VALIDATION_ERROR');
    expect(answer.body.error.details[0].path).toBe('request_line');
  });

  it('keeps serving after every refusal', async () => {
    await rawExchange(port, get('/health', [`X-Padding: ${'p'.repeat(2 * MAX_HEADER_BYTES)}`]));
    await rawExchange(port, 'GARBAGE\r\n\r\n');
    const answer = await rawExchange(port, get('/health'));
    expect(answer.status).toBe(200);
  });
});
