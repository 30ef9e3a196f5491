import { randomBytes, randomUUID } from 'node:crypto';
import type { PutEventsCommand, PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import type { SendMessageCommand } from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config';
import { appointmentCodec, clientCodec } from '../../lib/db/codecs';
import { COMPRESS_BODY_FROM_BYTES, MAX_STORED_BODY_BYTES, responseAttribute } from '../../lib/db/idempotency';
import type { AppointmentRecord as Appointment, ClientRecord } from '../../lib/domain/records';
import { eventsFromRecord } from '../../lib/events/from-record';
import { entrySize, eventBridgePublisher, toEntry } from '../../lib/events/publish';
import type { StreamRecord } from '../../lib/db/stream';
import type { ContractEvent } from '../../lib/events/types';
import { httpHandler } from '../../lib/http/handler';
import { illFormedStrings } from '../../lib/http/input';
import { MAX_RESPONSE_BYTES, payloadBytes } from '../../lib/http/response';
import { callableRoutes, defineRoutes, route, type RouteDef } from '../../lib/http/route';
import type { ApiEvent, ApiResult } from '../../lib/http/types';
import { routes } from '../../lib/routes';
import { CancelBody, CreateAppointmentBody, UpdateAppointmentBody } from '../../lib/schemas/appointments';
import { CreateClientBody } from '../../lib/schemas/resources';
import type { DeliveryJob } from '../../lib/webhooks/jobs';
import { MAX_SQS_DELAY_SECONDS, SqsDeliveryQueue } from '../../lib/webhooks/sqs-queue';

/**
 * AWS's limits the product must stay within, where pure code decides it (the rest, against
 * DynamoDB Local, is test/integration/aws-limits.test.ts). Free text is filled with U+0001: a
 * control character is 1 byte stored but 6 in JSON (`\u0001`), the most any character costs.
 */

const KiB = 1024;
/** The largest JSON cost of a character: `\u0001`. */
const worst = (length: number) => '\u0001'.repeat(length);

describe('strings DynamoDB refuses (lone surrogates) are found at the edge, by field path', () => {
  it('names every ill-formed value and key, at any depth, and nothing else', () => {
    const body = {
      first_name: '\ud800',
      ok: 'emoji \ud83d\ude00 is a pair',
      address: { line1: 'x\udc00y' },
      tags: ['fine', '\udfff'],
      'bad\ud801key': 1,
    };
    expect(illFormedStrings(body, 'body').map((problem) => problem.path)).toEqual([
      'first_name',
      'address.line1',
      'tags.1',
      'bad\ufffdkey',
    ]);
    expect(illFormedStrings('\ud800', 'body')).toEqual([
      { path: 'body', message: expect.stringContaining('lone surrogate') },
    ]);
    expect(illFormedStrings({ a: 'b', n: 1, none: null, list: [true] }, 'body')).toEqual([]);
  });

  it('walks a 100,000-deep body without overflowing the stack', () => {
    let deep: unknown = '\ud800';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    const [problem] = illFormedStrings(deep, 'body');
    expect(problem.path.split('.')).toHaveLength(100_000);
  });
});

describe('item 400 KB: a stored idempotent answer', () => {
  const headers = { 'content-type': 'application/json; charset=utf-8', location: '/v1/rooms/x' };

  it('keeps small answers as text, and large ones gzip-compressed within the item limit', () => {
    const small = JSON.stringify({ success: true, data: { id: 'x', name: 'Room' } });
    expect(responseAttribute({ status: 201, headers, body: small })).toEqual({ status: 201, headers, body: small });
    // A created resource's answer (about 1 KB) is kept compressed: the record's write stays one unit.
    const created = JSON.stringify({
      success: true,
      data: { id: randomUUID(), notes: 'Prefers mornings. '.repeat(50) },
    });
    expect(created.length).toBeGreaterThan(COMPRESS_BODY_FROM_BYTES);
    expect(responseAttribute({ status: 201, headers, body: created }).body_gzip!.length).toBeLessThan(
      created.length / 2,
    );
    // A 100-item list of clients with long notes: ~1.5 MB of JSON, far over 400 KB as text.
    const list = JSON.stringify({
      success: true,
      data: Array.from({ length: 100 }, (_, n) => ({ id: randomUUID(), notes: `client ${n} `.repeat(1500) })),
    });
    expect(list.length).toBeGreaterThan(1_000_000);
    const stored = responseAttribute({ status: 200, headers, body: list });
    expect(stored.body).toBeUndefined();
    expect(stored.body_gzip!.length).toBeLessThan(MAX_STORED_BODY_BYTES);
  });

  it('leaves out an answer too large even compressed (and says so), rather than fail the write', () => {
    const noise = randomBytes(600 * KiB).toString('base64');
    expect(responseAttribute({ status: 201, headers, body: noise })).toEqual({
      status: 201,
      headers,
      body_omitted: true,
    });
    expect(COMPRESS_BODY_FROM_BYTES).toBeLessThan(MAX_STORED_BODY_BYTES);
  });
});

// ---- EventBridge PutEvents (10 entries, 256 KB) and SQS (256 KB messages, 900 s delays) ----------

const MID = randomUUID();
const NOW = new Date();

function streamRecord(oldItem: Record<string, unknown> | null, newItem: Record<string, unknown>): StreamRecord {
  const image = (item: Record<string, unknown> | null) =>
    item ? marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }) : undefined;
  return {
    eventID: randomUUID(),
    eventName: oldItem ? 'MODIFY' : 'INSERT',
    dynamodb: {
      Keys: marshall({ pk: newItem.pk, sk: newItem.sk }),
      OldImage: image(oldItem),
      NewImage: image(newItem),
      SequenceNumber: '1',
      ApproximateCreationDateTime: Math.floor(NOW.getTime() / 1000),
    },
  };
}

/** An appointment with every free-text field at the schemas' maximum, as a change of all of them stores it. */
function maximalAppointment(fill: string): Appointment {
  const text = (length: number) => fill.repeat(length);
  // The longest texts the API takes: create/PATCH notes and internal notes, and a cancel reason.
  expect(UpdateAppointmentBody.safeParse({ notes: text(5000), internal_notes: text(5000) }).success).toBe(true);
  expect(CancelBody.safeParse({ reason: text(1000) }).success).toBe(true);
  expect(UpdateAppointmentBody.safeParse({ notes: text(5001) }).success).toBe(false);
  const at = new Date(NOW.getTime() + 86_400_000).toISOString();
  return {
    id: randomUUID(),
    medspa_id: MID,
    client_id: randomUUID(),
    service_id: randomUUID(),
    provider_id: randomUUID(),
    room_id: randomUUID(),
    equipment_id: randomUUID(),
    scheduled_at: at,
    end_at: at,
    duration_minutes: 480,
    status: 'cancelled',
    notes: text(5000),
    internal_notes: text(5000),
    source: 'manual',
    price_cents: Number.MAX_SAFE_INTEGER,
    cancelled_at: at,
    cancellation_reason: text(1000),
    version: 1_000_000,
    created_at: at,
    updated_at: at,
  } as Appointment;
}

/** A client with every field at the schemas' maximum (checked against the create body). */
function maximalClientBody(fill: string) {
  const text = (length: number) => `a${fill.repeat(length - 1)}`;
  const body = {
    first_name: text(200),
    last_name: text(200),
    email: `${'e'.repeat(64)}@${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(57)}.com`,
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
    tags: Array.from({ length: 50 }, (_, n) => `${n}`.padEnd(50, fill)),
    notes: text(5000),
  };
  const parsed = CreateClientBody.safeParse(body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
  return body;
}

function maximalClient(fill: string): ClientRecord {
  const at = NOW.toISOString();
  return {
    id: randomUUID(),
    medspa_id: MID,
    ...maximalClientBody(fill),
    last_visit_at: at,
    total_spent_cents: Number.MAX_SAFE_INTEGER,
    visit_count: 1_000_000,
    no_show_count: 1_000_000,
    version: 1_000_000,
    created_at: at,
    updated_at: at,
  } as unknown as ClientRecord;
}

/** The largest events the pipeline makes: a change of every text field (object and `previous` both at their maximum). */
function largestEvents(): ContractEvent[] {
  const before = {
    ...maximalAppointment('\u0001'),
    status: 'scheduled',
    cancelled_at: null,
    cancellation_reason: null,
  } as Appointment;
  const edited = {
    ...maximalAppointment('\u0002'),
    id: before.id,
    client_id: before.client_id,
    status: 'scheduled',
    cancelled_at: null,
    cancellation_reason: null,
    version: before.version + 1,
  } as Appointment;
  const cancelled = {
    ...maximalAppointment('\u0002'),
    id: before.id,
    client_id: before.client_id,
    version: before.version + 2,
  };
  const clientBefore = maximalClient('\u0001');
  const clientAfter = { ...maximalClient('\u0002'), id: clientBefore.id, version: clientBefore.version + 1 };
  const events = [
    ...eventsFromRecord(streamRecord(appointmentCodec.toItem(before), appointmentCodec.toItem(edited)), { now: NOW }),
    ...eventsFromRecord(streamRecord(appointmentCodec.toItem(edited), appointmentCodec.toItem(cancelled)), {
      now: NOW,
    }),
    ...eventsFromRecord(streamRecord(clientCodec.toItem(clientBefore), clientCodec.toItem(clientAfter)), { now: NOW }),
  ];
  expect(events.map((event) => event.type).sort()).toEqual([
    'appointment.cancelled',
    'appointment.status_changed',
    'appointment.updated',
    'client.updated',
  ]);
  return events;
}

describe('EventBridge PutEvents: at most 10 entries and 256 KB a call', () => {
  it('the largest event the product makes is well under 256 KB as one entry', () => {
    const sizes = largestEvents().map((event) => entrySize(toEntry(event, 'medspa-events')));
    expect(Math.max(...sizes)).toBeGreaterThan(50 * KiB);
    expect(Math.max(...sizes)).toBeLessThan(256 * KiB);
  });

  it('a burst of the largest events goes out in calls of at most 10 entries and 256 KB, in order, every one accepted', async () => {
    const calls: { count: number; bytes: number; ids: string[] }[] = [];
    const client = {
      async send(command: PutEventsCommand): Promise<PutEventsCommandOutput> {
        const entries = command.input.Entries ?? [];
        calls.push({
          count: entries.length,
          bytes: entries.reduce((sum, entry) => sum + entrySize(entry), 0),
          ids: entries.map((entry) => JSON.parse(entry.Detail!).id),
        });
        return { FailedEntryCount: 0, Entries: entries.map(() => ({ EventId: randomUUID() })), $metadata: {} };
      },
    };
    const events = Array.from({ length: 6 }, largestEvents)
      .flat()
      .map((event, n) => ({ ...event, id: `evt_${n}` }));
    await eventBridgePublisher({ client, eventBusName: 'medspa-events' })(events);
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) {
      expect(call.count).toBeLessThanOrEqual(10);
      expect(call.bytes).toBeLessThanOrEqual(256 * KiB);
    }
    expect(calls.flatMap((call) => call.ids)).toEqual(events.map((event) => event.id));
  });
});

describe('SQS: messages of at most 256 KB, DelaySeconds at most 900', () => {
  function stubQueue() {
    const sent: { body: string; delay: number }[] = [];
    const client = {
      send: async (command: SendMessageCommand) => {
        sent.push({ body: command.input.MessageBody!, delay: command.input.DelaySeconds! });
        return {};
      },
    };
    return { queue: new SqsDeliveryQueue('https://sqs.local/deliveries', client as never), sent };
  }

  const jobOf = (event: ContractEvent, attempt = 1): DeliveryJob => ({
    medspa_id: MID,
    subscription_id: randomUUID(),
    delivery_id: randomUUID(),
    delivery_created_at: NOW.toISOString(),
    attempt,
    due_at: NOW.toISOString(),
    event: event as DeliveryJob['event'],
  });

  it('a delivery job carrying the largest event fits one message', async () => {
    const { queue, sent } = stubQueue();
    for (const event of largestEvents()) await queue.send(jobOf(event), 0);
    const largest = Math.max(...sent.map((message) => Buffer.byteLength(message.body, 'utf8')));
    expect(largest).toBeGreaterThan(50 * KiB);
    expect(largest).toBeLessThan(256 * KiB);
  });

  it('waits past 15 minutes go as 900 s hops; fractions round up, never below 0', async () => {
    const { queue, sent } = stubQueue();
    const event = largestEvents()[0];
    for (const delay of [10 * 3600, 900.5, 899.2, 0.01, 0, -30]) await queue.send(jobOf(event), delay);
    expect(sent.map((message) => message.delay)).toEqual([MAX_SQS_DELAY_SECONDS, MAX_SQS_DELAY_SECONDS, 900, 1, 0, 0]);
    expect(MAX_SQS_DELAY_SECONDS).toBe(900);
  });
});

describe('API Gateway: 30 s integration timeout', () => {
  // Every route function's synthesized timeout below 30 s: test/infra/aws-limits.test.ts.

  it("a route that makes a webhook attempt itself has room for the attempt's own time limit", () => {
    const { WEBHOOK_TIMEOUT_MS } = config();
    const attempting = (callableRoutes(routes) as [string, RouteDef][]).filter(
      ([, route]) => route.path.startsWith('/v1/webhooks/{id}/') && route.method === 'POST' && route.timeoutSeconds,
    );
    expect(attempting.length).toBeGreaterThan(0);
    for (const [, route] of attempting) expect(route.timeoutSeconds! * 1000).toBeGreaterThan(WEBHOOK_TIMEOUT_MS + 5000);
  });
});

describe('Lambda 6 MB responses: what the HTTP layer does with an answer too large', () => {
  const fake = defineRoutes({
    hugeAnswer: route('hugeAnswer', () => ({
      method: 'GET',
      path: '/v1/test/huge',
      group: 'test',
      summary: 'A huge answer',
      auth: 'public',
      // Answers made up in the test: no table read.
      touches: { table: false },
    })),
    hugeList: route('hugeList', () => ({
      method: 'GET',
      path: '/v1/test/list',
      group: 'test',
      summary: 'A huge list',
      auth: 'public',
      // Answers made up in the test: no table read.
      touches: { table: false },
    })),
    hugeChange: route('hugeChange', () => ({
      method: 'POST',
      path: '/v1/test/change',
      group: 'test',
      summary: 'A huge answer to a change',
      auth: 'public',
      // Answers made up in the test: no table read.
      touches: { table: false },
    })),
  });
  const eventOf = (method: string, path: string): ApiEvent =>
    ({
      version: '2.0',
      routeKey: `${method} ${path}`,
      rawPath: path,
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: { requestId: randomUUID(), http: { method, path } },
    }) as unknown as ApiEvent;
  const run = async (route: RouteDef & { operation: string }, result: ApiResult) => {
    const response = await httpHandler(route, async () => result)(eventOf(route.method, route.path), {} as never);
    return { response, body: JSON.parse(String(response.body)) };
  };
  /** An item of ~700 KB of payload: 100,000 control characters, each 7 bytes once escaped twice. */
  const item = (n: number) => ({ id: `item-${n}`, text: worst(100_000) });

  it('a list page is cut where it still fits, with the cursor after its last item', async () => {
    const { response, body } = await run(fake.hugeList, {
      data: Array.from({ length: 20 }, (_, n) => item(n)),
      pagination: { total: 40, next_cursor: 'after-19' },
      cursorAfter: (index) => `after-${index}`,
    });
    expect(response.statusCode).toBe(200);
    expect(payloadBytes(response)).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(body.data.length).toBeGreaterThan(6);
    expect(body.data.length).toBeLessThan(20);
    expect(body.pagination).toEqual({ total: 40, next_cursor: `after-${body.data.length - 1}` });
    expect(body.data.map((entry: { id: string }) => entry.id)).toEqual(
      Array.from({ length: body.data.length }, (_, n) => `item-${n}`),
    );
  });

  it('a page that fits is left whole', async () => {
    const { body } = await run(fake.hugeList, {
      data: [item(0), item(1)],
      pagination: { total: 2, next_cursor: null },
      cursorAfter: () => 'unused',
    });
    expect(body.data).toHaveLength(2);
    expect(body.pagination.next_cursor).toBeNull();
  });

  it('an answer it cannot cut (no pages, or a list without cursors) is 400 VALIDATION_ERROR asking for less, not a 502', async () => {
    const single = await run(fake.hugeAnswer, { data: { text: worst(1_000_000) } });
    expect(single.response.statusCode).toBe(400);
    expect(single.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'query', message: expect.any(String) }],
    });
    const uncut = await run(fake.hugeList, {
      data: Array.from({ length: 20 }, (_, n) => item(n)),
      pagination: { total: 20, next_cursor: null },
    });
    expect(uncut.response.statusCode).toBe(400);
    expect(uncut.body.error.details).toEqual([{ path: 'limit', message: expect.any(String) }]);
  });

  it('the answer to a change stands as it is (the change has committed)', async () => {
    const { response } = await run(fake.hugeChange, { data: { text: worst(1_000_000) } });
    expect(response.statusCode).toBe(201);
  });
});

// Kept beside the other create bodies so a schema that grows past these sizes fails here first.
describe('the schemas that bound the largest items', () => {
  it('an appointment create takes the same 5000-character notes', () => {
    expect(
      CreateAppointmentBody.safeParse({
        client_id: randomUUID(),
        service_id: randomUUID(),
        provider_id: randomUUID(),
        scheduled_at: '2030-01-01T10:00:00Z',
        notes: worst(5000),
        internal_notes: worst(5000),
      }).success,
    ).toBe(true);
  });
});
