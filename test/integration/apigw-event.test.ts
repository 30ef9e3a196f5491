import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, listen, localRequestOf } from '../../infra/local/http-server';
import { eventFor, toEvent } from '../../infra/local/router';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { routes } from '../../lib/routes';
import { call } from '../fixtures/api';
import { booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * The local router's events against API Gateway's own. Sources:
 * - AWS, "Create AWS Lambda proxy integrations for HTTP APIs in API Gateway", payload format 2.0
 *   (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html):
 *   duplicate headers and query parameters comma-joined, cookie headers in `cookies`, header names
 *   lower-cased, and the sample event below, as documented.
 * - A live HTTP API capture (hotsock/voker, vokerhttp/testdata/apigwv2-request.json, captured from
 *   CloudWatch on 2026-07-10): `,` without a space, the path decoded, `+` a space in parameters,
 *   `rawQueryString` as sent.
 * - Bodies: HTTP APIs hand Lambda the body as text only for text/*, application/json, application/xml
 *   and application/javascript; anything else, form posts and a missing Content-Type included, comes
 *   base64-encoded (AWS documents the mechanism, not the list; the split was observed on live APIs).
 */

/** AWS's documented payload format 2.0 sample (the page above, "Payload format structure"). */
const AWS_SAMPLE = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/my/path',
  rawQueryString: 'parameter1=value1&parameter1=value2&parameter2=value',
  cookies: ['cookie1', 'cookie2'],
  headers: {
    header1: 'value1',
    header2: 'value1,value2',
  },
  queryStringParameters: {
    parameter1: 'value1,value2',
    parameter2: 'value',
  },
  requestContext: {
    accountId: '123456789012',
    apiId: 'api-id',
    authentication: {
      clientCert: {
        clientCertPem: 'CERT_CONTENT',
        subjectDN: 'www.example.com',
        issuerDN: 'Example issuer',
        serialNumber: 'a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1:a1',
        validity: {
          notBefore: 'May 28 12:30:02 2019 GMT',
          notAfter: 'Aug  5 09:36:04 2021 GMT',
        },
      },
    },
    authorizer: {
      jwt: {
        claims: {
          claim1: 'value1',
          claim2: 'value2',
        },
        scopes: ['scope1', 'scope2'],
      },
    },
    domainName: 'id.execute-api.us-east-1.amazonaws.com',
    domainPrefix: 'id',
    http: {
      method: 'POST',
      path: '/my/path',
      protocol: 'HTTP/1.1',
      sourceIp: 'IP',
      userAgent: 'agent',
    },
    requestId: 'id',
    routeKey: '$default',
    stage: '$default',
    time: '12/Mar/2020:19:03:58 +0000',
    timeEpoch: 1583348638390,
  },
  body: 'Hello from Lambda',
  pathParameters: {
    parameter1: 'value1',
  },
  isBase64Encoded: false,
  stageVariables: {
    stageVariable1: 'value1',
    stageVariable2: 'value2',
  },
};

/** The live capture (hotsock/voker, above), as captured; the typed logger's empty authorizer and mTLS blocks left out. */
const LIVE_CAPTURE = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/capture/space value',
  rawQueryString:
    'repeat=one&repeat=two&redirect=https%3A%2F%2Fexample.com%2Fa%2Fb&literalPlus=a+b&encodedPlus=a%2Bb&empty=',
  cookies: ['session=abc123', 'theme=dark'],
  headers: {
    accept: '*/*',
    'content-length': '66',
    'content-type': 'application/json',
    host: 'sjzepsqsu5.execute-api.us-west-2.amazonaws.com',
    'user-agent': 'curl/8.7.1',
    'x-amzn-trace-id': 'Root=1-6a5145a9-1bae89e2512ec92d5d9438a0',
    'x-forwarded-for': '68.8.83.18',
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
    'x-voker-probe': 'first,second',
  },
  queryStringParameters: {
    empty: '',
    encodedPlus: 'a+b',
    literalPlus: 'a b',
    redirect: 'https://example.com/a/b',
    repeat: 'one,two',
  },
  pathParameters: null,
  stageVariables: null,
  requestContext: {
    accountId: '910345601053',
    apiId: 'sjzepsqsu5',
    domainName: 'sjzepsqsu5.execute-api.us-west-2.amazonaws.com',
    domainPrefix: 'sjzepsqsu5',
    http: {
      method: 'POST',
      path: '/capture/space value',
      protocol: 'HTTP/1.1',
      sourceIp: '68.8.83.18',
      userAgent: 'curl/8.7.1',
    },
    requestId: 'ATfSmjLgPHcESJw=',
    routeKey: '$default',
    stage: '$default',
    time: '10/Jul/2026:19:19:05 +0000',
    timeEpoch: 1783711145766,
  },
  body: '{"message":"hello from the public internet","unicode":"lambda-λ"}',
  isBase64Encoded: false,
};

/** API Gateway's `requestContext.time`, e.g. 12/Mar/2020:19:03:58 +0000. */
const GATEWAY_TIME = /^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/;

const notFound = { route: routes.notFound };

describe('toEvent and eventFor: the event API Gateway sends (payload format 2.0)', () => {
  it("reproduces AWS's documented sample: every field we produce, and only those", () => {
    const event = toEvent(
      {
        method: 'post',
        url: '/my/path?parameter1=value1&parameter1=value2&parameter2=value',
        headers: {
          Header1: 'value1',
          Header2: ['value1', 'value2'],
          Cookie: 'cookie1; cookie2',
          'User-Agent': 'agent',
          Host: 'id.execute-api.us-east-1.amazonaws.com',
          'Content-Type': 'text/plain',
        },
        body: 'Hello from Lambda',
        sourceIp: 'IP',
      },
      notFound,
      { parameter1: 'value1' },
      'id',
    );
    // Not configured on this API: no API Gateway authorizer (tokens are verified in the function), no mTLS, no stage variables.
    const { stageVariables: _stageVariables, requestContext: sampleContext, ...sample } = AWS_SAMPLE;
    const { authorizer: _authorizer, authentication: _authentication, ...context } = sampleContext;
    expect(event).toEqual({
      ...sample,
      // The sample's headers are placeholders; a real request also has these.
      headers: {
        ...sample.headers,
        'user-agent': 'agent',
        host: 'id.execute-api.us-east-1.amazonaws.com',
        'content-type': 'text/plain',
      },
      requestContext: {
        ...context,
        accountId: 'local',
        apiId: 'local',
        time: expect.stringMatching(GATEWAY_TIME),
        timeEpoch: expect.any(Number),
      },
    });
    expect(AWS_SAMPLE.requestContext.time).toMatch(GATEWAY_TIME);
    expect(
      Math.abs(
        Date.parse(event.requestContext.time.replace(/^(\d+)\/(\w+)\/(\d+):/, '$1 $2 $3 ')) -
          event.requestContext.timeEpoch,
      ),
    ).toBeLessThan(1000);
  });

  it('reproduces a live HTTP API capture from the request that produced it', () => {
    const { event } = eventFor(
      {
        method: 'POST',
        url: `/capture/space%20value?${LIVE_CAPTURE.rawQueryString}`,
        headers: {
          Host: 'sjzepsqsu5.execute-api.us-west-2.amazonaws.com',
          'User-Agent': 'curl/8.7.1',
          Accept: '*/*',
          Cookie: 'session=abc123; theme=dark',
          'X-Voker-Probe': ['first', 'second'],
          'Content-Type': 'application/json',
          'Content-Length': '66',
        },
        body: Buffer.from(LIVE_CAPTURE.body),
        sourceIp: '68.8.83.18',
      },
      'ATfSmjLgPHcESJw=',
    );
    // Added by the gateway itself, not by the client (the local server adds none of them).
    const {
      'x-amzn-trace-id': _trace,
      'x-forwarded-for': _for,
      'x-forwarded-port': _port,
      'x-forwarded-proto': _proto,
      ...clientHeaders
    } = LIVE_CAPTURE.headers;
    const {
      accountId: _account,
      apiId: _api,
      domainName: _domain,
      domainPrefix: _prefix,
      time: _time,
      timeEpoch: _epoch,
      ...context
    } = LIVE_CAPTURE.requestContext;
    const { pathParameters: _params, stageVariables: _stage, ...capture } = LIVE_CAPTURE;
    expect(event).toMatchObject({ ...capture, headers: clientHeaders, requestContext: context });
    expect(event.headers).toEqual(clientHeaders);
    expect(event.queryStringParameters).toEqual(capture.queryStringParameters);
    expect(event.pathParameters ?? null).toBeNull();
  });

  it('joins repeated headers with "," under lower-case names, never on an inherited key', () => {
    const { event } = eventFor(
      {
        method: 'GET',
        url: '/health',
        headers: {
          'X-Dup': ['a', 'b'],
          'x-dup': 'c',
          Authorization: ['Bearer 1', 'Bearer 2'],
          constructor: 'x',
          ['__proto__']: 'y',
        },
      },
      'r',
    );
    expect(event.headers['x-dup']).toBe('a,b,c');
    expect(event.headers.authorization).toBe('Bearer 1,Bearer 2');
    expect(Object.entries(event.headers)).toEqual(
      expect.arrayContaining([
        ['constructor', 'x'],
        ['__proto__', 'y'],
      ]),
    );
  });

  it('moves every Cookie header into `cookies`, one entry a cookie; none without one', () => {
    const { event } = eventFor(
      { method: 'GET', url: '/health', headers: { cookie: ['a=1; b=2', 'c=3'], Cookie: 'd=4' } },
      'r',
    );
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3', 'd=4']);
    expect(event.headers).not.toHaveProperty('cookie');
    const plain = eventFor({ method: 'GET', url: '/health', headers: {} }, 'r').event;
    expect(plain).not.toHaveProperty('cookies');
  });

  it('joins repeated query parameters with ",", decodes them, keeps rawQueryString as sent', () => {
    const raw = 'status=scheduled&status=confirmed&from=2030-01-01&to=2030-01-02&q=a+b%2Bc%20d&__proto__=x&empty=';
    const { event } = eventFor({ method: 'GET', url: `/v1/appointments?${raw}` }, 'r');
    expect(event.rawQueryString).toBe(raw);
    expect(event.queryStringParameters).toEqual({
      status: 'scheduled,confirmed',
      from: '2030-01-01',
      to: '2030-01-02',
      q: 'a b+c d',
      ['__proto__']: 'x',
      empty: '',
    });
    expect(Object.keys(event.queryStringParameters!)).toContain('__proto__');
    const none = eventFor({ method: 'GET', url: '/v1/appointments' }, 'r').event;
    expect({ raw: none.rawQueryString, parsed: none.queryStringParameters }).toEqual({ raw: '', parsed: undefined });
  });

  it.each([
    ['text/plain', false],
    ['text/csv; charset=utf-8', false],
    ['application/json', false],
    ['Application/JSON; charset=UTF-8', false],
    ['application/xml', false],
    ['application/javascript', false],
    ['application/octet-stream', true],
    ['image/png', true],
    ['application/x-www-form-urlencoded', true],
    ['application/merge-patch+json', true],
    [undefined, true],
  ])('a body sent as %s: isBase64Encoded %s, the bytes exact', (contentType, base64) => {
    const bytes = Buffer.from([0x7b, 0x7d, 0x00, 0xff, 0xfe, 0xce, 0xbb]);
    const { event } = eventFor(
      {
        method: 'POST',
        url: '/v1/credentials',
        headers: contentType ? { 'content-type': contentType } : {},
        body: bytes,
      },
      'r',
    );
    expect(event.isBase64Encoded).toBe(base64);
    expect(event.body).toBe(base64 ? bytes.toString('base64') : bytes.toString('utf8'));
  });

  it('no body: none in the event, and not base64', () => {
    for (const body of [undefined, '', Buffer.alloc(0)]) {
      const { event } = eventFor(
        { method: 'POST', url: '/v1/credentials', headers: { 'content-type': 'application/octet-stream' }, body },
        'r',
      );
      expect({ body: event.body, isBase64Encoded: event.isBase64Encoded }).toEqual({
        body: undefined,
        isBase64Encoded: false,
      });
    }
  });

  it('requestContext.http.sourceIp is the peer address (an IPv4 peer of a dual-stack socket as IPv4)', () => {
    const ip = (sourceIp?: string) =>
      eventFor({ method: 'GET', url: '/health', sourceIp }, 'r').event.requestContext.http.sourceIp;
    expect([ip('203.0.113.7'), ip('::ffff:203.0.113.7'), ip('2001:db8::1')]).toEqual([
      '203.0.113.7',
      '203.0.113.7',
      '2001:db8::1',
    ]);
  });

  it('routeKey is "METHOD /template" of the matched route, `$default` for anything else; pathParameters decoded', () => {
    const one = eventFor({ method: 'get', url: '/v1/appointments/abc%20d%C3%A9f?x=1' }, 'r');
    expect(one.operation).toBe('getAppointment');
    expect([one.event.routeKey, one.event.requestContext.routeKey]).toEqual([
      'GET /v1/appointments/{id}',
      'GET /v1/appointments/{id}',
    ]);
    expect(one.event.pathParameters).toEqual({ id: 'abc déf' });
    expect([one.event.rawPath, one.event.requestContext.http.path]).toEqual([
      '/v1/appointments/abc déf',
      '/v1/appointments/abc déf',
    ]);
    const two = eventFor({ method: 'DELETE', url: '/v1/services/s%201/providers/p%2B2' }, 'r').event;
    expect([two.routeKey, two.pathParameters]).toEqual([
      'DELETE /v1/services/{id}/providers/{provider_id}',
      { id: 's 1', provider_id: 'p+2' },
    ]);
    for (const [method, url] of [
      ['GET', '/v1/nowhere/%zz'],
      ['PUT', '/v1/appointments'],
      ['HEAD', '/health'],
    ]) {
      const fallback = eventFor({ method, url }, 'r');
      expect(fallback.operation).toBe('notFound');
      expect([fallback.event.routeKey, fallback.event.requestContext.routeKey, fallback.event.pathParameters]).toEqual([
        '$default',
        '$default',
        undefined,
      ]);
    }
    expect(eventFor({ method: 'GET', url: '/v1/nowhere/%zz' }, 'r').event.rawPath).toBe('/v1/nowhere/%zz');
  });
});

interface Answer {
  status: number;
  text: string;
}

/** One request with node:http, which sends an array-valued header as one line per value. */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: Buffer | string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers as OutgoingHttpHeaders,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const close = (server: Server) => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
};

describe('the local HTTP server builds the event from the bytes on the wire', () => {
  let echo: Server;
  let port: number;

  // The server's own request reading (localRequestOf), answered with the event the router builds.
  beforeAll(async () => {
    echo = createServer(async (incoming, response) => {
      const { event } = eventFor(await localRequestOf(incoming), 'echo');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(event));
    });
    port = await listen(echo, 0);
  });

  afterAll(() => close(echo));

  const eventOver = async (options: Parameters<typeof send>[1]) => JSON.parse((await send(port, options)).text);

  it('keeps every line of a repeated header (Node itself keeps only the first Authorization), joined with ","', async () => {
    const event = await eventOver({
      path: '/health',
      headers: {
        authorization: ['Bearer one', 'Bearer two'],
        'x-note': ['a', 'b'],
        'content-type': ['text/plain', 'text/csv'],
      },
    });
    expect(event.headers).toMatchObject({
      authorization: 'Bearer one,Bearer two',
      'x-note': 'a,b',
      'content-type': 'text/plain,text/csv',
    });
  });

  it('cookie lines become `cookies`; the query, path parameters and peer come through', async () => {
    const event = await eventOver({
      path: '/v1/appointments/a%20b?status=scheduled&status=confirmed',
      headers: { cookie: ['a=1; b=2', 'c=3'] },
    });
    expect(event).toMatchObject({
      routeKey: 'GET /v1/appointments/{id}',
      cookies: ['a=1', 'b=2', 'c=3'],
      queryStringParameters: { status: 'scheduled,confirmed' },
      rawQueryString: 'status=scheduled&status=confirmed',
      pathParameters: { id: 'a b' },
      requestContext: { http: { method: 'GET', path: '/v1/appointments/a b', sourceIp: '127.0.0.1' } },
    });
    expect(event.headers).not.toHaveProperty('cookie');
  });

  it('a binary body arrives base64-encoded, byte for byte; a JSON one as text', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    const binary = await eventOver({
      method: 'POST',
      path: '/v1/credentials',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect({ base64: binary.isBase64Encoded, bytes: Buffer.from(binary.body, 'base64').equals(bytes) }).toEqual({
      base64: true,
      bytes: true,
    });
    const json = await eventOver({
      method: 'POST',
      path: '/v1/credentials',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"λ"}',
    });
    expect({ base64: json.isBase64Encoded, body: json.body }).toEqual({ base64: false, body: '{"name":"λ"}' });
  });
});

describe('the product parses API Gateway events end to end (real local server)', () => {
  let server: Server;
  let port: number;
  let scene: Scene;
  let token: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = createLocalServer();
    port = await listen(server, 0);
    scene = await makeScene();
    token = scene.practice.adminToken;
    const at = async (hhmm: string) => (await booked(scene, { scheduled_at: nyTime(BOOKING_DAY, hhmm) })).id as string;
    [ids.scheduled, ids.confirmed, ids.cancelled, ids.checkedIn] = [
      await at('09:00'),
      await at('11:00'),
      await at('13:00'),
      await at('15:00'),
    ];
    const move = async (id: string, status: string) =>
      expect((await call('PATCH', `/v1/appointments/${id}/status`, { token, body: { status } })).status).toBe(200);
    await move(ids.confirmed, 'confirmed');
    await move(ids.checkedIn, 'confirmed');
    await move(ids.checkedIn, 'checked_in');
    expect((await call('POST', `/v1/appointments/${ids.cancelled}/cancel`, { token })).status).toBe(200);
  });

  afterAll(() => close(server));

  const auth = () => ({ authorization: `Bearer ${token}` });
  const listed = async (query: string) => {
    const answer = await send(port, {
      path: `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}&${query}`,
      headers: auth(),
    });
    expect(answer.status, answer.text).toBe(200);
    return (JSON.parse(answer.text).data as { id: string; status: string }[]).map(({ id, status }) => [id, status]);
  };

  it('GET /v1/appointments?status=scheduled&status=confirmed answers only those statuses (as status=scheduled,confirmed does)', async () => {
    const expected = [
      [ids.scheduled, 'scheduled'],
      [ids.confirmed, 'confirmed'],
    ];
    expect(await listed('status=scheduled&status=confirmed')).toEqual(expected);
    expect(await listed('status=scheduled,confirmed')).toEqual(expected);
    expect(await listed('status=confirmed&status=checked_in')).toEqual([
      [ids.confirmed, 'confirmed'],
      [ids.checkedIn, 'checked_in'],
    ]);
    expect((await listed('')).length).toBe(4);
  });

  it('a repeated Authorization header is joined as API Gateway joins it, so it is no longer a bearer token: 401', async () => {
    expect((await send(port, { path: '/v1/practice', headers: auth() })).status).toBe(200);
    const twice = await send(port, {
      path: '/v1/practice',
      headers: { authorization: [auth().authorization, auth().authorization] },
    });
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.text).error.code).toBe('UNAUTHORIZED');
  });

  it('cookies (which no route reads) change nothing', async () => {
    const answer = await send(port, {
      path: '/v1/practice',
      headers: { ...auth(), cookie: ['session=abc; theme=dark', 'x=1'] },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).data.id).toBe(scene.practice.medspaId);
  });

  it('a binary body gets the same 4xx as before (JSON expected), never a 500', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]);
    for (const contentType of ['image/png', 'application/octet-stream']) {
      const answer = await send(port, {
        method: 'POST',
        path: '/v1/credentials',
        headers: { ...auth(), 'content-type': contentType },
        body: png,
      });
      expect({ contentType, status: answer.status, code: JSON.parse(answer.text).error?.code }).toEqual({
        contentType,
        status: 400,
        code: 'INVALID_JSON',
      });
    }
    const form = await send(port, {
      method: 'POST',
      path: '/v1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: png,
    });
    expect(form.status).toBe(400);
    expect(JSON.parse(form.text).error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'body' }] });
    const huge = await send(port, {
      method: 'POST',
      path: '/v1/credentials',
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(MAX_BODY_BYTES + 1, 0xff),
    });
    expect([huge.status, JSON.parse(huge.text).error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('JSON that arrives base64-encoded (a non-text or missing Content-Type) is decoded and parsed', async () => {
    const body = JSON.stringify({ client_id: scene.practice.clientId, client_secret: scene.practice.clientSecret });
    for (const headers of [{ 'content-type': 'application/octet-stream' }, {}] as Record<string, string>[]) {
      const answer = await send(port, { method: 'POST', path: '/v1/auth/token', headers, body });
      expect(answer.status, answer.text).toBe(200);
      expect(JSON.parse(answer.text).access_token).toEqual(expect.any(String));
    }
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: scene.practice.clientId,
      client_secret: scene.practice.clientSecret,
    }).toString();
    const formAnswer = await send(port, {
      method: 'POST',
      path: '/v1/auth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(formAnswer.status, formAnswer.text).toBe(200);
  });
});
