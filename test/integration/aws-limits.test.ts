import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventFor, lambdaContext, type LocalRequest } from '../../infra/local/router';
import { forgetAccess } from '../../lib/auth/access';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb, ddbCalls, tableName } from '../../lib/db/client';
import { itemId, readItems } from '../../lib/db/key-reads';
import { claimIdempotencyKey, completeIdempotencyKey, readIdempotencyRecord } from '../../lib/db/idempotency';
import { auditPk, entityKey, idempotencyKey, type Key } from '../../lib/db/keys';
import { MAX_RESPONSE_BYTES } from '../../lib/http/response';
import { handlerModule } from '../../lib/http/route';
import { call, makePractice, type CallResult, type TestPractice } from '../fixtures/api';
import { makeClient, makeProvider, makeService } from '../fixtures/builders';
import { book, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * AWS's limits against DynamoDB Local (which enforces the 400 KB item, 100-action transaction and
 * 1 MB Query page, but never leaves BatchGetItem keys unprocessed and takes strings AWS refuses):
 * for each, the product stays within it or answers a clear 4xx in the contract's envelope; never
 * a 500, nothing lost. Pure parts (events, SQS, timeouts) are in test/unit/aws-limits.test.ts.
 */

const KiB = 1024;
/** Lambda's limit on a response payload (6 MB). */
const LAMBDA_PAYLOAD_BYTES = 6 * 1024 * 1024;

let scene: Scene;
let practice: TestPractice;
beforeAll(async () => {
  scene = await makeScene();
  practice = scene.practice;
});

const admin = (
  method: string,
  url: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) => call(method, url, { token: practice.adminToken, ...options });

/** A request as API Gateway would deliver it, after `edit` (what the local router cannot send: a lone surrogate in a path or query value). */
async function invoke(request: LocalRequest, edit: (event: APIGatewayProxyEventV2) => void) {
  const requestId = randomUUID();
  const { operation, route, event } = eventFor(
    { ...request, headers: { authorization: `Bearer ${practice.adminToken}`, ...request.headers } },
    requestId,
  );
  edit(event);
  const file = pathToFileURL(join(import.meta.dirname, '../..', `${handlerModule(operation, route)}.ts`)).href;
  const module = (await import(/* @vite-ignore */ file)) as {
    handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
  };
  const response = await runAsFunction(operation, () => module.handler(event, lambdaContext(operation, requestId)));
  return { status: response.statusCode ?? 200, body: JSON.parse(String(response.body)), requestId };
}

async function auditEntries(medspaId: string) {
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': auditPk(medspaId) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

const expectValidationAt = (response: { status: number; body: any }, paths: string[]) => {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe('VALIDATION_ERROR');
  expect(response.body.error.request_id).toEqual(expect.any(String));
  expect(response.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(paths);
};

// ---------------------------------------------------------------------------------------------

describe('strings DynamoDB refuses (a lone surrogate is not UTF-8) are 400 at the edge, naming the field', () => {
  it('create client: a top-level and nested fields, and nothing is written', async () => {
    const before = (await admin('GET', '/v1/clients?limit=1')).body.pagination.total;
    expectValidationAt(await admin('POST', '/v1/clients', { rawBody: '{"first_name":"\\ud800","last_name":"Hart"}' }), [
      'first_name',
    ]);
    expectValidationAt(
      await admin('POST', '/v1/clients', {
        rawBody:
          '{"first_name":"Ann","last_name":"Hart","address":{"line1":"1 Main \\udc00St"},"tags":["vip","\\udbff"]}',
      }),
      ['address.line1', 'tags.1'],
    );
    // A well-formed pair (an emoji written as escapes) is text like any other.
    const emoji = await admin('POST', '/v1/clients', {
      rawBody: '{"first_name":"Ann \\ud83d\\ude00","last_name":"Hart"}',
    });
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(201);
    expect(emoji.body.data.first_name).toBe('Ann \u{1F600}');
    expect((await admin('GET', '/v1/clients?limit=1')).body.pagination.total).toBe(before + 1);
  });

  it('PATCH: the client stays as it was', async () => {
    const client = await makeClient(practice);
    expectValidationAt(await admin('PATCH', `/v1/clients/${client.id}`, { rawBody: '{"notes":"ok \\udc00"}' }), [
      'notes',
    ]);
    const after = (await admin('GET', `/v1/clients/${client.id}`)).body.data;
    expect(after.version).toBe(client.version);
    expect(after.notes).toBe(client.notes);
  });

  it('a query parameter, a filter sent as a GET body, and a path parameter; the refusal is audited', async () => {
    expectValidationAt(
      await invoke(
        { method: 'GET', url: '/v1/clients?q=x' },
        (event) => (event.queryStringParameters = { q: 'ann\ud800' }),
      ),
      ['q'],
    );
    expectValidationAt(await admin('GET', '/v1/appointments', { rawBody: '{"status":"\\ud800"}' }), ['status']);
    const refused = await invoke(
      { method: 'PATCH', url: '/v1/clients/x', body: '{"notes":"n"}', headers: { 'content-type': 'application/json' } },
      (event) => (event.pathParameters = { id: 'x\ud800' }),
    );
    expectValidationAt(refused, ['id']);
    // The refusal's audit entry names the id as DynamoDB can store it (U+FFFD for the lone surrogate).
    const entry = (await auditEntries(practice.medspaId)).find((item) => item.request_id === refused.requestId);
    expect(entry).toMatchObject({
      operation: 'updateClient',
      outcome: 'VALIDATION_ERROR',
      status: 400,
      resource_id: 'x\ufffd',
    });
  });
});

// ---------------------------------------------------------------------------------------------

/**
 * Real DynamoDB may answer a BatchGetItem with some keys in `UnprocessedKeys` (throttling, or over
 * 16 MB); DynamoDB Local never does. While armed, this middleware moves all but one found item of
 * each BatchGetItem answer into UnprocessedKeys, as AWS would.
 */
const unprocessed = { armed: 0, moved: 0, calls: 0 };

function installUnprocessedKeys() {
  const name = 'injectUnprocessedKeys';
  ddb().middlewareStack.remove(name);
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName !== 'BatchGetItemCommand') return result;
      unprocessed.calls += 1;
      if (unprocessed.armed <= 0) return result;
      unprocessed.armed -= 1;
      const output = result.output as {
        Responses?: Record<string, Record<string, unknown>[]>;
        UnprocessedKeys?: Record<string, { Keys: Key[]; ConsistentRead?: boolean }>;
      };
      const table = tableName();
      const items = output.Responses?.[table] ?? [];
      const kept = items.slice(0, 1);
      const moved = items.slice(1).map((item) => ({ pk: item.pk as string, sk: item.sk as string }));
      unprocessed.moved += moved.length;
      if (moved.length > 0) {
        output.Responses = { ...output.Responses, [table]: kept };
        output.UnprocessedKeys = { ...output.UnprocessedKeys, [table]: { Keys: moved, ConsistentRead: true } };
      }
      return result;
    },
    { step: 'initialize', name },
  );
}

describe('BatchGetItem: 100 keys a call, and UnprocessedKeys asked for again', () => {
  beforeAll(installUnprocessedKeys);
  afterEach(() => {
    unprocessed.armed = 0;
  });

  it('readItems reads 150 keys (two calls of at most 100) and every key left unprocessed, twice over', async () => {
    const clients = await several(practice, 6, (lane) => makeClient(lane), 2);
    const present = clients.map((client) => entityKey(practice.medspaId, 'CLIENT', client.id));
    const absent = Array.from({ length: 144 }, () => entityKey(practice.medspaId, 'CLIENT', randomUUID()));
    unprocessed.armed = 4;
    unprocessed.moved = 0;
    const calls = unprocessed.calls;
    const found = await readItems([...absent.slice(0, 70), ...present, ...absent.slice(70)]);
    expect(unprocessed.moved).toBeGreaterThan(0);
    expect(unprocessed.calls - calls).toBeGreaterThan(2);
    expect([...found.keys()].sort()).toEqual(present.map(itemId).sort());
  });

  it('a list that reads its related items in a batch names every one of them', async () => {
    const other = await makeClient(practice);
    for (const [hhmm, client] of [
      ['10:00', scene.client],
      ['13:00', other],
    ] as const)
      expect((await book(scene, { client_id: client.id, scheduled_at: nyTime(BOOKING_DAY, hhmm) })).status).toBe(201);
    unprocessed.armed = 10;
    unprocessed.moved = 0;
    const list = await admin('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}&limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(unprocessed.moved).toBeGreaterThan(0);
    for (const item of list.body.data) {
      expect(item.client.first_name).toEqual(expect.any(String));
      expect(item.service.name).toEqual(expect.any(String));
      expect(item.provider.full_name).toEqual(expect.any(String));
    }
  });

  it("the token check's read of the credential, left unprocessed, is not taken for a revoked credential (401)", async () => {
    forgetAccess(practice.medspaId);
    unprocessed.armed = 1;
    unprocessed.moved = 0;
    const answer = await admin('GET', '/v1/practice');
    expect(unprocessed.moved).toBe(1);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('item 400 KB: stored idempotent answers and audit entries', () => {
  /** Time off at the body limit: 3-byte characters stored as such, so the item is ~250 KB. */
  const bigTimeOff = (entries: number, char = '\u20ac') =>
    Array.from({ length: entries }, (_, n) => ({
      start: `2031-01-${String((n % 28) + 1).padStart(2, '0')}T0${n % 10}:00:00Z`,
      end: `2031-01-${String((n % 28) + 1).padStart(2, '0')}T0${n % 10}:30:00Z`,
      reason: `${n} ${char.repeat(490)}`,
    }));

  it('DynamoDB Local refuses an item over 400 KB, as AWS does (so the rest of this block means something)', async () => {
    const put = ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `LIMITS#${randomUUID()}`, sk: 'x', text: 'x'.repeat(401 * KiB) },
      }),
    );
    await expect(put).rejects.toThrow(/size/i);
  });

  it('a 250 KB create with an Idempotency-Key is stored compressed and replayed exactly', async () => {
    const body = { first_name: 'Big', last_name: 'Provider', time_off: bigTimeOff(160) };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(200 * KiB);
    const key = `big-${randomUUID()}`;
    const first = await admin('POST', '/v1/providers', { body, headers: { 'idempotency-key': key } });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(201);
    const { Item } = await ddb().send(
      new GetCommand({
        TableName: tableName(),
        Key: idempotencyKey(practice.medspaId, practice.clientId, key),
        ConsistentRead: true,
      }),
    );
    expect(Item?.response.body).toBeUndefined();
    expect(Item?.response.body_gzip).toBeInstanceOf(Uint8Array);
    const replay = await admin('POST', '/v1/providers', { body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.etag).toBe(first.headers.etag);
    expect(replay.body).toEqual(first.body);
  });

  it('a 100-item list answer (1.5 MB of JSON) is kept and read back whole', async () => {
    const key = `list-${randomUUID()}`;
    const lockId = randomUUID();
    expect(
      (
        await claimIdempotencyKey({
          medspaId: practice.medspaId,
          clientId: practice.clientId,
          key,
          fingerprint: 'f',
          lockId,
          now: Date.now(),
          lockMs: 60_000,
        })
      ).claimed,
    ).toBe(true);
    const list = JSON.stringify({
      success: true,
      data: Array.from({ length: 100 }, (_, n) => ({ id: randomUUID(), notes: `client ${n} `.repeat(1500) })),
      pagination: { total: 100, next_cursor: null },
    });
    await completeIdempotencyKey(practice.medspaId, practice.clientId, key, lockId, {
      status: 200,
      headers: { etag: '"1"' },
      body: list,
    });
    const record = await readIdempotencyRecord(practice.medspaId, practice.clientId, key);
    expect(record?.status).toBe('completed');
    expect(record?.response).toEqual({ status: 200, headers: { etag: '"1"' }, body: list });
  });

  it('an answer too large even compressed is left out; its replay is 409 CONFLICT, and the operation does not run again', async () => {
    const key = `huge-${randomUUID()}`;
    const room = await admin('POST', '/v1/rooms', { body: { name: 'Once only' }, headers: { 'idempotency-key': key } });
    expect(room.status).toBe(201);
    const record = await readIdempotencyRecord(practice.medspaId, practice.clientId, key);
    // Stands in for an answer no route makes today: 600 KB of noise does not compress below 400 KB.
    await completeIdempotencyKey(practice.medspaId, practice.clientId, key, record!.lock_id, {
      status: 201,
      headers: {},
      body: randomBytes(600 * KiB).toString('base64'),
    });
    expect((await readIdempotencyRecord(practice.medspaId, practice.clientId, key))?.response?.body).toBeNull();
    const rooms = async () =>
      (await admin('GET', '/v1/rooms?limit=100')).body.data.filter((r: { name: string }) => r.name === 'Once only')
        .length;
    expect(await rooms()).toBe(1);
    const replay = await admin('POST', '/v1/rooms', {
      body: { name: 'Once only' },
      headers: { 'idempotency-key': key },
    });
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('CONFLICT');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await rooms()).toBe(1);
  });

  it('an audit entry never carries the body: a 250 KB create and a refused one leave entries of a few hundred bytes', async () => {
    const fresh = await makePractice();
    const body = { first_name: 'Big', last_name: 'Audit', time_off: bigTimeOff(160) };
    const created = await call('POST', '/v1/providers', { token: fresh.adminToken, body });
    expect(created.status).toBe(201);
    const refused = await call('POST', '/v1/providers', {
      token: fresh.adminToken,
      body: { ...body, unknown: 'x'.repeat(10_000) },
    });
    expect(refused.status).toBe(400);
    // A long path id is recorded as given (the request line's limit bounds it).
    const longId = 'a'.repeat(7000);
    expect(
      (await call('PATCH', `/v1/providers/${longId}`, { token: fresh.adminToken, body: { title: 'x' } })).status,
    ).toBe(404);
    const entries = await auditEntries(fresh.medspaId);
    expect(entries.map((entry) => entry.outcome).sort()).toEqual(['PROVIDER_NOT_FOUND', 'VALIDATION_ERROR', 'success']);
    const sizes = entries.map((entry) => Buffer.byteLength(JSON.stringify(entry)));
    expect(Math.max(...sizes.filter((_, i) => entries[i].resource_id !== longId))).toBeLessThan(1024);
    expect(Math.max(...sizes)).toBeLessThan(8 * KiB);
  });
});

// ---------------------------------------------------------------------------------------------

/** `count` set-up creations (the builders write below HTTP), `lanes` at a time. */
async function several<T>(
  practice: TestPractice,
  count: number,
  make: (practice: TestPractice, n: number) => Promise<T>,
  lanes = 4,
): Promise<T[]> {
  const made: T[] = [];
  for (let i = 0; i < count; i += lanes)
    made.push(
      ...(await Promise.all(Array.from({ length: Math.min(lanes, count - i) }, (_, j) => make(practice, i + j)))),
    );
  return made;
}

describe('TransactWriteItems: at most 100 actions', () => {
  it('a service certifying 98 new providers (99 actions, plus its audit entry and idempotency mark) commits, is audited and replays', async () => {
    const fresh = await makePractice();
    const providers = await several(fresh, 98, (lane) => makeProvider(lane));
    const key = `svc-${randomUUID()}`;
    const body = {
      name: 'Everyone',
      price_cents: 1000,
      duration_minutes: 30,
      provider_ids: providers.map((p) => p.id),
    };
    const created = await call('POST', '/v1/services', {
      token: fresh.adminToken,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(created.body.data.provider_ids).toHaveLength(98);
    const entries = await auditEntries(fresh.medspaId);
    expect(entries.filter((entry) => entry.operation === 'createService')).toEqual([
      expect.objectContaining({ outcome: 'success', resource_id: created.body.data.id }),
    ]);
    const replay = await call('POST', '/v1/services', {
      token: fresh.adminToken,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(created.body);
    expect((await call('GET', '/v1/services', { token: fresh.adminToken })).body.pagination.total).toBe(1);
  });

  it('deleting a provider certified for 100 services (over 100 actions) is 409 CONFLICT and changes nothing; at 99 it goes through', async () => {
    const fresh = await makePractice();
    const provider = await makeProvider(fresh);
    const services = await several(fresh, 100, (lane, n) =>
      makeService(lane, { name: `Service ${n}`, provider_ids: [provider.id] }),
    );
    const refused = await call('DELETE', `/v1/providers/${provider.id}`, { token: fresh.adminToken });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect((await call('GET', `/v1/providers/${provider.id}`, { token: fresh.adminToken })).status).toBe(200);
    expect(
      (await call('GET', `/v1/services/${services[0].id}`, { token: fresh.adminToken })).body.data.provider_ids,
    ).toEqual([provider.id]);

    expect(
      (await call('DELETE', `/v1/services/${services[0].id}/providers/${provider.id}`, { token: fresh.adminToken }))
        .status,
    ).toBe(200);
    const deleted = await call('DELETE', `/v1/providers/${provider.id}`, { token: fresh.adminToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await call('GET', '/v1/services?limit=100', { token: fresh.adminToken });
    expect(
      after.body.data.filter((service: { provider_ids: string[] }) => service.provider_ids.includes(provider.id)),
    ).toEqual([]);
    expect(
      (await auditEntries(fresh.medspaId))
        .filter((entry) => entry.operation === 'deleteProvider')
        .map((entry) => entry.outcome)
        .sort(),
    ).toEqual(['CONFLICT', 'success']);
  });
});

// ---------------------------------------------------------------------------------------------

/** Lambda's payload of an answer as the router returned it: the JSON of status, headers and body. */
const payloadOf = (response: { status: number; headers: Record<string, string>; body: unknown }) =>
  Buffer.byteLength(
    JSON.stringify({ statusCode: response.status, headers: response.headers, body: JSON.stringify(response.body) }),
  );

/** Every page of a list, following next_cursor; each answer checked against Lambda's limit. */
async function allPages(token: string, url: string) {
  const pages: { items: { id: string }[]; payload: number; total: number }[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const answer: CallResult = await call('GET', cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url, {
      token,
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    pages.push({ items: answer.body.data, payload: payloadOf(answer), total: answer.body.pagination.total });
    cursor = answer.body.pagination.next_cursor;
  }
  return pages;
}

describe('Query 1 MB pages and Lambda 6 MB responses: lists of the largest items', () => {
  it('26 providers of ~250 KB: one page reads past 1 MB Query pages, and an answer over 6 MB is cut with a cursor, nothing lost', async () => {
    const fresh = await makePractice();
    const timeOff = Array.from({ length: 160 }, (_, n) => ({
      start: `2031-02-${String((n % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      end: `2031-02-${String((n % 28) + 1).padStart(2, '0')}T11:00:00Z`,
      reason: `${n} ${'\u20ac'.repeat(490)}`,
    }));
    const providers = await several(fresh, 26, (lane, n) =>
      makeProvider(lane, { last_name: `Large ${n}`, time_off: timeOff }),
    );
    const ids = providers.map((p) => p.id).sort();

    ddbCalls.reset();
    const pages = await allPages(fresh.adminToken, '/v1/providers?limit=100');
    // ~6.5 MB of items: more than one Query page of 1 MB for the first answer alone.
    expect(ddbCalls.counts.get('QueryCommand') ?? 0).toBeGreaterThan(6);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(page.payload).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      expect(page.total).toBe(26);
    }
    expect(pages[0].payload).toBeGreaterThan(LAMBDA_PAYLOAD_BYTES * 0.8);
    expect(pages.flatMap((page) => page.items.map((item) => item.id)).sort()).toEqual(ids);

    // Pages under the limit are not cut: 1 MB Query pages never make a page short or repeat an item.
    const small = await allPages(fresh.adminToken, '/v1/providers?limit=10');
    expect(small.map((page) => page.items.length)).toEqual([10, 10, 6]);
    expect(small.flatMap((page) => page.items.map((item) => item.id)).sort()).toEqual(ids);
  });

  it('100 clients with every field at its maximum: the 100-item page fits one response (by the list or the search)', async () => {
    const fresh = await makePractice();
    const text = (length: number) => `a${'\u0001'.repeat(length - 1)}`;
    const body = (n: number) => ({
      first_name: text(200),
      last_name: text(200),
      email: `${String(n).padStart(3, '0')}${'e'.repeat(61)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(57)}.com`,
      phone: `+${'1'.repeat(39)}`,
      date_of_birth: '1988-04-12',
      address: {
        line1: text(200),
        line2: text(200),
        city: text(100),
        region: text(100),
        postal_code: text(20),
        country: text(100),
      },
      membership_status: 'active',
      membership_tier: text(100),
      tags: Array.from({ length: 50 }, (_, t) => `${t}`.padEnd(50, '\u0001')),
      notes: text(5000),
    });
    await several(fresh, 100, (lane, n) => makeClient(lane, body(n)));
    for (const url of ['/v1/clients?limit=100', '/v1/clients?limit=100&q=a']) {
      const pages = await allPages(fresh.adminToken, url);
      for (const page of pages) expect(page.payload).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
      expect(new Set(pages.flatMap((page) => page.items.map((item) => item.id))).size).toBe(100);
      expect(pages[0].payload).toBeGreaterThan(LAMBDA_PAYLOAD_BYTES * 0.8);
    }
  });

  it('the largest availability search it takes (20 providers, 5-minute slots round the clock, long names) fits one response; more is a 400', async () => {
    const fresh = await makePractice({ time_zone: 'America/New_York' });
    const allDay = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [{ start: '00:00', end: '24:00' }]]),
    );
    const name = (n: number) => `${n}`.padEnd(200, '\u0001');
    const providers = await several(fresh, 20, (lane, n) =>
      makeProvider(lane, { first_name: name(n), last_name: name(n), working_hours: allDay }),
    );
    const service = await makeService(fresh, { duration_minutes: 5, provider_ids: providers.map((p) => p.id) });
    const day = (offset: number) =>
      new Date(Date.parse(`${BOOKING_DAY}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const search = (days: number) =>
      call(
        'GET',
        `/v1/availability?service_id=${service.id}&from=${BOOKING_DAY}&to=${day(days - 1)}&interval_minutes=5`,
        { token: fresh.adminToken },
      );
    // 6 days x 20 providers x 288 starts = 34,560, under the search's 40,000 candidates.
    const largest = await search(6);
    expect(largest.status).toBe(200);
    expect(
      largest.body.data.reduce((sum: number, entry: { slots: unknown[] }) => sum + entry.slots.length, 0),
    ).toBeGreaterThan(30_000);
    expect(payloadOf(largest)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expectValidationAt(await search(31), ['interval_minutes']);
  });
});
