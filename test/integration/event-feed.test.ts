import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { MedspaClient } from '../../lib/client/index';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb } from '../../lib/db/client';
import { readItem } from '../../lib/db/key-reads';
import { eventFeedKey, eventIdKey } from '../../lib/db/keys';
import { readFeedHead } from '../../lib/db/event-feed';
import { FEED_RETENTION_DAYS } from '../../lib/domain/event-feed';
import { listEvents } from '../../lib/use-cases/event-feed';
import { processStreamRecords } from '../../lib/use-cases/stream-to-bus';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { counted } from '../fixtures/ddb-calls';
import { clientCreated, clientRenamed, runWorker } from '../fixtures/feed-records';

// The event feed (contract section 15): what the stream worker keeps of every event, read through
// GET /v1/events. Records are hand-made client changes run through the worker's own path
// (processStreamRecords, as its function), with no subscription: the feed keeps them anyway.

const page = (practice: TestPractice, query = '', token = practice.adminToken) =>
  call('GET', `/v1/events${query ? `?${query}` : ''}`, { token });

/** Every event after `cursor`, page by page (`limit` each), until caught up; with the cursor to poll from. */
async function readAll(practice: TestPractice, cursor?: string, limit = 50) {
  const ids: string[] = [];
  for (;;) {
    const params = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const answer = await page(practice, params.toString());
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    ids.push(...answer.body.data.map((event: { id: string }) => event.id));
    cursor = answer.body.pagination.next_cursor;
    if (!answer.body.pagination.has_more) return { ids, cursor: cursor! };
  }
}

describe('event feed', () => {
  it('keeps every event, subscribed to or not, oldest first, in the webhook envelope; GET by id; 404s', async () => {
    const practice = await makePractice();
    const records = [
      clientCreated(practice.medspaId),
      clientRenamed(practice.medspaId),
      clientCreated(practice.medspaId),
    ];
    expect(await runWorker(records.slice(0, 2))).toEqual([]);
    await runWorker(records.slice(2));

    const answer = await page(practice);
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((event: { type: string }) => event.type)).toEqual([
      'client.created',
      'client.updated',
      'client.created',
    ]);
    const [first, renamed] = answer.body.data;
    expect(Object.keys(first).sort()).toEqual(['created_at', 'data', 'id', 'medspa_id', 'type']);
    expect(first).toMatchObject({ medspa_id: practice.medspaId, data: { object: { first_name: 'Casey' } } });
    expect(renamed.data).toMatchObject({ object: { first_name: 'Robin' }, previous: { first_name: 'Casey' } });
    expect(answer.body.pagination).toEqual({ next_cursor: expect.any(String), has_more: false });
    expect(answer.body.pagination).not.toHaveProperty('total');

    const byId = await call('GET', `/v1/events/${renamed.id}`, { token: practice.adminToken });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(renamed);
    for (const id of ['evt_00000000000000000000000000000000', 'not-an-event', 'x'.repeat(2000)]) {
      const missing = await call('GET', `/v1/events/${id}`, { token: practice.adminToken });
      expect(missing.status, id.slice(0, 20)).toBe(404);
      expect(missing.body.error.code).toBe('EVENT_NOT_FOUND');
    }
  });

  it("another practice's events never show, by list or by id", async () => {
    const [mine, theirs] = await Promise.all([makePractice(), makePractice()]);
    await runWorker([clientCreated(mine.medspaId), clientCreated(theirs.medspaId), clientCreated(mine.medspaId)]);
    const [own, other] = await Promise.all([page(mine), page(theirs)]);
    expect(own.body.data).toHaveLength(2);
    expect(other.body.data).toHaveLength(1);
    expect(own.body.data.every((event: { medspa_id: string }) => event.medspa_id === mine.medspaId)).toBe(true);
    const foreign = await call('GET', `/v1/events/${other.body.data[0].id}`, { token: mine.adminToken });
    expect(foreign.status).toBe(404);
    // A cursor of one practice is no cursor of another's.
    expect((await page(theirs, `cursor=${encodeURIComponent(own.body.pagination.next_cursor)}`)).status).toBe(400);
  });

  it('pages with no gap or duplicate while parallel worker invocations keep events', async () => {
    const practice = await makePractice();
    const WORKERS = 6;
    const PER_WORKER = 3;
    const RECORDS = 4;
    // Each worker invocation runs several batches, each batch several records: shards racing for the head.
    const batches = Array.from({ length: WORKERS }, () =>
      Array.from({ length: PER_WORKER }, () => Array.from({ length: RECORDS }, () => clientCreated(practice.medspaId))),
    );
    const expected = new Set(batches.flat(2).map((record) => record.eventID));
    let writing = true;
    const seen: string[] = [];
    const reader = (async () => {
      let cursor: string | undefined;
      for (;;) {
        const done = !writing;
        const params = new URLSearchParams({ limit: '5', ...(cursor ? { cursor } : {}) });
        const answer = await page(practice, params.toString());
        expect(answer.status).toBe(200);
        seen.push(...answer.body.data.map((event: { id: string }) => event.id));
        cursor = answer.body.pagination.next_cursor;
        if (done && !answer.body.pagination.has_more) return;
      }
    })();
    await Promise.all(
      batches.map(async (worker) => {
        for (const batch of worker) await runWorker(batch);
      }),
    );
    writing = false;
    await reader;

    expect(seen).toHaveLength(expected.size);
    expect(new Set(seen).size).toBe(expected.size);
    // In place order: the ids each place holds, 1..n, are what the reader saw, in that order.
    const head = await readFeedHead(practice.medspaId);
    expect(head).toBe(expected.size);
    const places = await Promise.all(
      Array.from({ length: head }, (_, index) => readItem(eventFeedKey(practice.medspaId, index + 1))),
    );
    expect(places.map((item) => JSON.parse(String(item!.event_json)).id)).toEqual(seen);
  });

  it('keeps a redelivered record once, in a later batch or twice in one', async () => {
    const practice = await makePractice();
    const records = [clientCreated(practice.medspaId), clientRenamed(practice.medspaId)];
    await runWorker(records);
    await runWorker([records[1]!, records[0]!, records[1]!, clientCreated(practice.medspaId)]);
    await Promise.all([runWorker(records), runWorker(records)]);
    const { ids } = await readAll(practice);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(await readFeedHead(practice.medspaId)).toBe(3);
  });

  it('a batch whose events cannot be kept fails whole and publishes nothing; its retry keeps and publishes each once', async () => {
    const practice = await makePractice();
    const records = [clientCreated(practice.medspaId), clientCreated(practice.medspaId)];
    const name = 'failFeedTransaction';
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') throw new Error('DynamoDB is down');
        return next(args);
      },
      { step: 'initialize', name },
    );
    const published: unknown[] = [];
    const deps = { publish: async (events: unknown[]) => void published.push(...events), wanted: async () => true };
    try {
      const failed = await runAsFunction('streamToBus', () => processStreamRecords(records, deps));
      expect(failed.batchItemFailures).toHaveLength(2);
    } finally {
      ddb().middlewareStack.remove(name);
    }
    expect(published).toEqual([]);
    expect(await readFeedHead(practice.medspaId)).toBe(0);
    const retried = await runAsFunction('streamToBus', () => processStreamRecords(records, deps));
    expect(retried.batchItemFailures).toEqual([]);
    expect(published).toHaveLength(2);
    expect((await readAll(practice)).ids).toHaveLength(2);
  });

  it('an empty feed hands out a cursor that resumes at its first event; the last page cursor resumes exactly', async () => {
    const practice = await makePractice();
    const empty = await page(practice);
    expect(empty.body).toMatchObject({ data: [], pagination: { has_more: false } });
    const cursor = empty.body.pagination.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));

    await runWorker([clientCreated(practice.medspaId), clientCreated(practice.medspaId)]);
    const caughtUp = await readAll(practice, cursor, 1);
    expect(caughtUp.ids).toHaveLength(2);

    // Polling from the last page's cursor: nothing, then exactly what came since.
    expect((await readAll(practice, caughtUp.cursor)).ids).toEqual([]);
    await runWorker([clientRenamed(practice.medspaId)]);
    const later = await readAll(practice, caughtUp.cursor);
    expect(later.ids).toHaveLength(1);
    expect(later.ids[0]).not.toBe(caughtUp.ids[1]);
  });

  it('types filters; the cursor is a place, so a reader may change its filter and keep it', async () => {
    const practice = await makePractice();
    await runWorker([
      clientCreated(practice.medspaId),
      clientRenamed(practice.medspaId),
      clientCreated(practice.medspaId),
      clientRenamed(practice.medspaId),
    ]);
    const updates = await page(practice, 'types=client.updated&limit=1');
    expect(updates.body.data.map((event: { type: string }) => event.type)).toEqual(['client.updated']);
    expect(updates.body.pagination.has_more).toBe(true);
    const rest = await page(
      practice,
      `types=client.updated&cursor=${encodeURIComponent(updates.body.pagination.next_cursor)}`,
    );
    expect(rest.body.data.map((event: { type: string }) => event.type)).toEqual(['client.updated']);
    expect(rest.body.pagination.has_more).toBe(false);
    // After the first update (place 2), unfiltered: the second create and the second update.
    const unfiltered = await page(practice, `cursor=${encodeURIComponent(updates.body.pagination.next_cursor)}`);
    expect(unfiltered.body.data.map((event: { type: string }) => event.type)).toEqual([
      'client.created',
      'client.updated',
    ]);

    const unknown = await page(practice, 'types=client.exploded');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toMatch(/^types/);
  });

  it('roles: admin, manager and analyst read it; front desk and providers get 403', async () => {
    const practice = await makePractice();
    await runWorker([clientCreated(practice.medspaId)]);
    for (const role of ['manager', 'analyst', 'front_desk', 'provider'] as const) {
      const token = await practice.tokenForRole(role);
      const allowed = role === 'manager' || role === 'analyst';
      const listed = await page(practice, '', token);
      expect(listed.status, role).toBe(allowed ? 200 : 403);
      if (!allowed) expect(listed.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('keeps each event 30 days (the TTL attribute), the place and the id alike', async () => {
    const practice = await makePractice();
    await runWorker([clientCreated(practice.medspaId, new Date().toISOString())]);
    const fresh = await page(practice);
    const event = fresh.body.data[0];
    const expiry = Math.floor(Date.parse(event.created_at) / 1000) + FEED_RETENTION_DAYS * 86_400;
    expect((await readItem(eventFeedKey(practice.medspaId, 1)))?.expires_at).toBe(expiry);
    expect((await readItem(eventIdKey(practice.medspaId, event.id)))?.expires_at).toBe(expiry);

    // An event past its 30 days that TTL has not removed yet is answered by neither read.
    await runWorker([clientCreated(practice.medspaId, new Date(Date.now() - 31 * 86_400_000).toISOString())]);
    const listed = await readAll(practice);
    expect(listed.ids).toEqual([event.id]);
  });

  it('DynamoDB calls: a page is one GetItem (the head) and one Query; keeping a batch, one GetItem and one transaction per practice', async () => {
    const practice = await makePractice();
    const records = Array.from({ length: 10 }, () => clientCreated(practice.medspaId));
    const keeping = await counted(() => runWorker(records));
    expect(keeping.calls).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const read = await counted(() => listEvents(practice.medspaId, { limit: 50 }));
    expect(read.result.data).toHaveLength(10);
    expect(read.calls).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
  });
});

describe('typed client: paginate and pages over the feed', () => {
  let server: Server;
  let client: MedspaClient;
  let practice: TestPractice;

  beforeAll(async () => {
    server = createLocalServer();
    const port = await listen(server, 0);
    practice = await makePractice();
    client = new MedspaClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: practice.clientId,
      clientSecret: practice.clientSecret,
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('paginate stops once caught up; a walk from the last cursor reads exactly what came since', async () => {
    await runWorker(Array.from({ length: 5 }, () => clientCreated(practice.medspaId)));
    const first: string[] = [];
    let cursor: string | undefined;
    for await (const feedPage of client.pages('listEvents', { query: { limit: 2 } })) {
      first.push(...feedPage.data.map((event) => event.id));
      cursor = feedPage.pagination?.next_cursor;
    }
    expect(first).toHaveLength(5);

    const none = [];
    for await (const event of client.paginate('listEvents', { query: { cursor } })) none.push(event);
    expect(none).toEqual([]);

    await runWorker([clientRenamed(practice.medspaId)]);
    const since = [];
    for await (const event of client.paginate('listEvents', { query: { cursor, limit: 2 } })) since.push(event.type);
    expect(since).toEqual(['client.updated']);
  });
});
