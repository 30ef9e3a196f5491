import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { findWebhook } from '../../lib/db/webhooks';
import type { ContractEvent, EventType as ContractEventType } from '../../lib/events/types';
import { fanOut, processDeliveryJob, type DeliveryJob, type DeliveryQueue } from '../../lib/webhooks/jobs';
import { JOURNAL_FILE, startLocalDelivery, type LocalDelivery } from '../../lib/webhooks/local-delivery';
import { SqsDeliveryQueue } from '../../lib/webhooks/sqs-queue';
import { deliveryRecordHandler, fanOutRecordHandler } from '../../lib/webhooks/workers';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { startReceiver, type Behaviour, type Receiver } from '../fixtures/receiver';
import { waitFor } from '../fixtures/wait';

/**
 * Delivery end to end: events → fan-out → jobs → signed attempts → retries → the log, on the
 * in-process queue of the local server and on the SQS workers' record handlers, against a real
 * receiver on 127.0.0.1.
 */

let eventSeq = 0;
const makeEvent = (
  medspaId: string,
  type: ContractEventType = 'client.created',
  overrides: Partial<ContractEvent> = {},
): ContractEvent => ({
  id: `evt_${randomUUID().replace(/-/g, '')}`,
  type,
  created_at: new Date().toISOString(),
  medspa_id: medspaId,
  data: { object: { id: randomUUID(), seq: ++eventSeq } },
  ...overrides,
});

const subscribe = async (practice: TestPractice, url: string, events: string[] = ['*']) => {
  const response = await call('POST', '/v1/webhooks', { token: practice.adminToken, body: { url, events } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string; secret: string };
};

const log = async (practice: TestPractice, webhookId: string) => {
  const response = await call('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Array<{
    id: string;
    event_id: string;
    attempt: number;
    status: string;
    response_status: number | null;
    error: string | null;
    next_attempt_at: string | null;
  }>;
};

const idsAt = (receiver: Receiver, path: string, list: 'requests' | 'accepted' = 'accepted') =>
  receiver[list].filter((r) => r.path === path).map((r) => r.headers['webhook-id']);

/** A seeded PRNG (mulberry32): random, but the same run every time. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const newDataDir = () => mkdtempSync(join(tmpdir(), 'medspa-webhooks-'));

let practice: TestPractice;
let receiver: Receiver;
const running: LocalDelivery[] = [];
const start = (options: Parameters<typeof startLocalDelivery>[0]) => {
  const delivery = startLocalDelivery({ dataDir: newDataDir(), ...options });
  running.push(delivery);
  return delivery;
};

beforeAll(async () => {
  process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
  resetConfig();
  practice = await makePractice();
  receiver = await startReceiver();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((delivery) => delivery.stop()));
  receiver.behave(() => 'ok');
});
afterAll(async () => {
  await receiver.close();
});

describe('local delivery (the in-process queue of the local server)', () => {
  it('retries a failing receiver on the schedule: 2 failures, then the event arrives; the log shows the 3 attempts', async () => {
    const path = `/retry-${randomUUID()}`;
    const hook = await subscribe(practice, receiver.url(path));
    receiver.behave((request) =>
      request.path === path && receiver.requests.filter((r) => r.path === path).length <= 2 ? { status: 500 } : 'ok',
    );
    const delivery = start({ schedule: [0.05, 0.1, 0.2] });
    const event = makeEvent(practice.medspaId);
    await delivery.publish([event]);

    await waitFor('the event to arrive', () => idsAt(receiver, path).includes(event.id));
    await waitFor('the queue to drain', () => delivery.pending() === 0);
    const requests = receiver.requests.filter((r) => r.path === path);
    expect(requests).toHaveLength(3);
    // Every attempt: the same webhook-id and body, freshly signed, verifying with the secret.
    for (const request of requests) {
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(new Webhook(hook.secret).verify(request.body, request.headers)).toEqual(event);
    }
    const entries = await waitFor('the 3rd attempt to be logged', async () => {
      const found = await log(practice, hook.id);
      return found.length === 3 && found[0].status === 'succeeded' ? found : null;
    });
    expect(entries.map((e) => [e.attempt, e.status, e.response_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(entries.every((e) => e.event_id === event.id)).toBe(true);
    expect(entries[0].next_attempt_at).toBeNull();
    expect(entries[1].next_attempt_at).not.toBeNull();
    expect(Date.parse(entries[1].next_attempt_at!) - Date.parse(entries[2].next_attempt_at!)).toBeGreaterThan(0);
  });

  it('500 events to a receiver failing 30% of attempts at random: every event delivered at least once, none lost', async () => {
    const path = `/flaky-${randomUUID()}`;
    await subscribe(practice, receiver.url(path), ['appointment.created']);
    const random = seeded(8);
    receiver.behave((request) => (request.path === path && random() < 0.3 ? { status: 503 } : 'ok'));
    // 16 attempts each: the chance that one of 500 events fails them all is about 2e-6.
    const delivery = start({ schedule: Array.from({ length: 15 }, () => 0.02) });
    const events = Array.from({ length: 500 }, () => makeEvent(practice.medspaId, 'appointment.created'));
    await delivery.publish(events);

    const wanted = new Set(events.map((e) => e.id));
    await waitFor(
      'all 500 events to be accepted',
      () => {
        const got = new Set(idsAt(receiver, path));
        return [...wanted].every((id) => got.has(id));
      },
      90_000,
    );
    await waitFor('the queue to drain', () => delivery.pending() === 0, 30_000);
    const attempts = receiver.requests.filter((r) => r.path === path);
    const failed = attempts.length - idsAt(receiver, path).length;
    expect(failed / attempts.length).toBeGreaterThan(0.2);
    expect(failed / attempts.length).toBeLessThan(0.4);
  }, 300_000);

  it("sends a subscription only its practice's events of its chosen types; a disabled one gets none", async () => {
    const other = await makePractice();
    const tag = randomUUID();
    const paths = {
      clients: `/clients-${tag}`,
      all: `/all-${tag}`,
      disabled: `/disabled-${tag}`,
      otherAll: `/other-${tag}`,
    };
    await subscribe(practice, receiver.url(paths.clients), ['client.created', 'client.updated']);
    await subscribe(practice, receiver.url(paths.all), ['*']);
    const disabled = await subscribe(practice, receiver.url(paths.disabled), ['*']);
    expect(
      (await call('PATCH', `/v1/webhooks/${disabled.id}`, { token: practice.adminToken, body: { enabled: false } }))
        .status,
    ).toBe(200);
    await subscribe(other, receiver.url(paths.otherAll), ['*']);

    const delivery = start({ schedule: [] });
    const mine = [
      makeEvent(practice.medspaId, 'client.created'),
      makeEvent(practice.medspaId, 'payment.received'),
      makeEvent(practice.medspaId, 'appointment.cancelled'),
    ];
    const theirs = [makeEvent(other.medspaId, 'client.created')];
    // Not a contract event type on the bus: the rule does not route it.
    const stray = makeEvent(practice.medspaId, 'webhook.test');
    await delivery.publish([...mine, ...theirs, stray]);
    await waitFor(
      'deliveries',
      () =>
        idsAt(receiver, paths.all).length === 3 &&
        idsAt(receiver, paths.otherAll).length === 1 &&
        idsAt(receiver, paths.clients).length === 1,
    );
    await waitFor('the queue to drain', () => delivery.pending() === 0);

    expect(idsAt(receiver, paths.clients, 'requests')).toEqual([mine[0].id]);
    expect(idsAt(receiver, paths.all, 'requests').sort()).toEqual(mine.map((e) => e.id).sort());
    expect(idsAt(receiver, paths.otherAll, 'requests')).toEqual([theirs[0].id]);
    expect(idsAt(receiver, paths.disabled, 'requests')).toEqual([]);
    expect(await log(practice, disabled.id)).toEqual([]);
  });

  it('logs hang, redirect, 500, a dropped connection and a 100 MB body as failed attempts, and keeps delivering', async () => {
    const tag = randomUUID();
    const cases: Record<string, Behaviour> = {
      [`/hang-${tag}`]: 'hang',
      [`/redirect-${tag}`]: { status: 307, location: 'http://169.254.169.254/' },
      [`/error-${tag}`]: { status: 500 },
      [`/close-${tag}`]: 'close',
      [`/huge-${tag}`]: { huge: 100 * 1024 * 1024 },
    };
    const healthy = `/healthy-${tag}`;
    receiver.behave((request) => cases[request.path] ?? 'ok');
    const hooks = await Promise.all(
      Object.keys(cases).map(async (path) => ({
        path,
        hook: await subscribe(practice, receiver.url(path), ['consent.signed']),
      })),
    );
    const good = await subscribe(practice, receiver.url(healthy), ['consent.signed']);
    const delivery = start({ schedule: [], timeoutMs: 500 });
    const first = makeEvent(practice.medspaId, 'consent.signed');
    await delivery.publish([first]);
    await waitFor('the queue to drain', () => delivery.pending() === 0);

    const errors: Record<string, string | null> = {};
    for (const { path, hook } of hooks) {
      const entries = await log(practice, hook.id);
      expect(
        entries.map((e) => [e.attempt, e.status, e.next_attempt_at]),
        path,
      ).toEqual([[1, 'failed', null]]);
      errors[path.split('-')[0]] = entries[0].error;
    }
    expect(errors).toEqual({
      '/hang': 'no complete response within 0.5 s',
      '/redirect': 'redirect (HTTP 307) not followed',
      '/error': 'HTTP 500',
      '/close': 'connection closed by the receiver',
      '/huge': 'response body over 64 KiB',
    });
    expect(idsAt(receiver, healthy)).toEqual([first.id]);

    const second = makeEvent(practice.medspaId, 'consent.signed');
    await delivery.publish([second]);
    await waitFor('the next event', () => idsAt(receiver, healthy).includes(second.id));
    // The attempt is logged right after the receiver answers: wait for the log, not a sleep.
    await waitFor(
      'both attempts logged as succeeded',
      async () => (await log(practice, good.id)).map((e) => e.status).join() === 'succeeded,succeeded',
    );
  });

  it('delivers a repeated event (a replayed stream record) once more at most, not once per replay', async () => {
    const path = `/replay-${randomUUID()}`;
    const hook = await subscribe(practice, receiver.url(path), ['client.updated']);
    const delivery = start({ schedule: [] });
    const event = makeEvent(practice.medspaId, 'client.updated');
    await delivery.publish([event]);
    await waitFor('the queue to drain', () => delivery.pending() === 0 && idsAt(receiver, path).length === 1);
    await delivery.publish([event]);
    await waitFor('the queue to drain again', () => delivery.pending() === 0);
    expect(idsAt(receiver, path, 'requests')).toEqual([event.id]);
    expect(await log(practice, hook.id)).toHaveLength(1);
  });

  it('keeps waiting retries across a restart (journal under DATA_DIR)', async () => {
    const path = `/restart-${randomUUID()}`;
    const hook = await subscribe(practice, receiver.url(path), ['product.low_stock']);
    receiver.behave((request) => (request.path === path ? { status: 502 } : 'ok'));
    const dataDir = newDataDir();
    // The retry waits a minute; the restarted process runs a minute later (its clock says so).
    const first = startLocalDelivery({ dataDir, schedule: [60] });
    const event = makeEvent(practice.medspaId, 'product.low_stock');
    await first.publish([event]);
    await waitFor('the first attempt to fail and schedule a retry', async () => {
      const entries = await log(practice, hook.id);
      return entries.some((e) => e.status === 'failed') && entries.some((e) => e.status === 'pending');
    });
    await first.stop();
    const journal = JSON.parse(readFileSync(join(dataDir, JOURNAL_FILE), 'utf8'));
    expect(journal.jobs).toHaveLength(1);
    expect(journal.jobs[0]).toMatchObject({ attempt: 2, subscription_id: hook.id, event: { id: event.id } });
    expect(JSON.stringify(journal)).not.toContain(hook.secret.slice(6));

    receiver.behave(() => 'ok');
    const second = start({ dataDir, schedule: [60], now: () => new Date(Date.now() + 61_000) });
    expect(second.pending()).toBe(1);
    await waitFor('the retry after the restart', () => idsAt(receiver, path).includes(event.id));
    await waitFor('the queue to drain', () => second.pending() === 0);
    const entries = await log(practice, hook.id);
    expect(entries.map((e) => [e.attempt, e.status])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
    expect(existsSync(join(dataDir, JOURNAL_FILE))).toBe(true);
  });
});

/** A queue that only records what it is given. */
class CapturingQueue implements DeliveryQueue {
  sent: Array<{ job: DeliveryJob; delaySeconds: number }> = [];
  async send(job: DeliveryJob, delaySeconds: number) {
    this.sent.push({ job, delaySeconds });
  }
  take() {
    return this.sent.splice(0);
  }
}

describe('auto-disable', () => {
  it('disables a subscription whose every delivery failed for 3 days (a success in between restarts the count)', async () => {
    const practice = await makePractice();
    const path = `/down-${randomUUID()}`;
    const hook = await subscribe(practice, receiver.url(path), ['client.deleted']);
    receiver.behave((request) => (request.path === path ? { status: 500 } : 'ok'));
    const queue = new CapturingQueue();
    const t0 = Date.now();
    const at = (hours: number) => () => new Date(t0 + hours * 3600_000);
    const attemptAt = async (hours: number) => {
      await fanOut(makeEvent(practice.medspaId, 'client.deleted'), queue, { now: at(hours) });
      const [{ job }] = queue.take();
      const result = await processDeliveryJob(job, queue, { now: at(hours), schedule: [] });
      queue.take();
      return result;
    };
    const state = async () => (await findWebhook(practice.medspaId, hook.id))!;

    expect(await attemptAt(0)).toBe('gave_up');
    expect((await state()).first_failure_at).toBe(new Date(t0).toISOString());
    expect(await attemptAt(60)).toBe('gave_up');
    receiver.behave(() => 'ok');
    expect(await attemptAt(70)).toBe('succeeded');
    expect(await state()).toMatchObject({ enabled: true, last_success_at: new Date(t0 + 70 * 3600_000).toISOString() });
    expect((await state()).first_failure_at).toBeUndefined();

    receiver.behave((request) => (request.path === path ? { status: 500 } : 'ok'));
    await attemptAt(71);
    await attemptAt(71 + 71);
    expect((await state()).enabled).toBe(true);
    await attemptAt(71 + 72);
    const disabled = await call('GET', `/v1/webhooks/${hook.id}`, { token: practice.adminToken });
    expect(disabled.body.data).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringContaining('failed for 3 days'),
      first_failure_at: new Date(t0 + 71 * 3600_000).toISOString(),
    });

    // Disabled: no new jobs for it, and a retry already queued is logged as failed without a call.
    const before = receiver.requests.filter((r) => r.path === path).length;
    expect(await fanOut(makeEvent(practice.medspaId, 'client.deleted'), queue, { now: at(150) })).toBe(0);
    const late: DeliveryJob = {
      medspa_id: practice.medspaId,
      subscription_id: hook.id,
      delivery_id: randomUUID(),
      delivery_created_at: at(150)().toISOString(),
      attempt: 2,
      due_at: new Date(t0).toISOString(),
      event: makeEvent(practice.medspaId, 'client.deleted'),
    };
    expect(await processDeliveryJob(late, queue, { now: at(150) })).toBe('dropped');
    expect(receiver.requests.filter((r) => r.path === path).length).toBe(before);
    expect((await log(practice, hook.id))[0]).toMatchObject({
      attempt: 2,
      status: 'failed',
      error: 'subscription disabled',
    });

    // Re-enabled, it starts afresh.
    const enabled = await call('PATCH', `/v1/webhooks/${hook.id}`, {
      token: practice.adminToken,
      body: { enabled: true },
    });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null, first_failure_at: null });
    await attemptAt(151);
    expect((await state()).enabled).toBe(true);
  });
});

describe('retry jitter', () => {
  it("spreads the wait before the next attempt within ±20% of the schedule's, as its random source says", async () => {
    const practice = await makePractice();
    const path = `/jitter-${randomUUID()}`;
    await subscribe(practice, receiver.url(path), ['client.deleted']);
    receiver.behave((request) => (request.path === path ? { status: 500 } : 'ok'));
    const queue = new CapturingQueue();
    const now = new Date();
    for (const [random, seconds] of [
      [0, 80],
      [0.5, 100],
      [0.75, 110],
    ] as const) {
      await fanOut(makeEvent(practice.medspaId, 'client.deleted'), queue, { now: () => now });
      const [{ job }] = queue.take();
      expect(await processDeliveryJob(job, queue, { now: () => now, schedule: [100], random: () => random })).toBe(
        'retrying',
      );
      const [retry] = queue.take();
      expect(retry.delaySeconds).toBeCloseTo(seconds, 6);
      expect(retry.job.due_at).toBe(new Date(now.getTime() + seconds * 1000).toISOString());
    }
  });
});

describe('SQS workers (record handlers)', () => {
  const sqsRecord = (body: unknown, messageId: string = randomUUID()): SQSRecord =>
    ({
      messageId,
      receiptHandle: 'r',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: {},
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
      awsRegion: 'us-east-1',
    }) as SQSRecord;
  const onBus = (event: ContractEvent) => ({
    version: '0',
    id: randomUUID(),
    'detail-type': event.type,
    source: 'medspa-api',
    account: '0',
    time: event.created_at,
    region: 'us-east-1',
    resources: [],
    detail: event,
  });

  /** SqsDeliveryQueue over a client that records SendMessage inputs instead of calling AWS. */
  const recordingSqs = () => {
    const messages: Array<{ QueueUrl?: string; MessageBody?: string; DelaySeconds?: number }> = [];
    const queue = new SqsDeliveryQueue('https://sqs.us-east-1.amazonaws.com/000000000000/deliveries', {
      send: async (command: SendMessageCommand) => {
        messages.push(command.input);
        return {};
      },
    } as never);
    return { queue, messages };
  };

  it('fan-out turns an EventBridge event into one job per subscription; delivery retries with DelaySeconds up to 15 minutes (longer waits: webhook-retry-sweep.test.ts)', async () => {
    const practice = await makePractice();
    const path = `/sqs-${randomUUID()}`;
    const hook = await subscribe(practice, receiver.url(path), ['payment.received']);
    const { queue, messages } = recordingSqs();
    const processor = new BatchProcessor(EventType.SQS);
    const context = {} as Context;
    const event = makeEvent(practice.medspaId, 'payment.received');
    const fanned = await processPartialResponse(
      { Records: [sqsRecord(onBus(event)), sqsRecord('{not json', 'poison')] },
      fanOutRecordHandler(queue),
      processor,
      { context },
    );
    expect(fanned.batchItemFailures).toEqual([{ itemIdentifier: 'poison' }]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ QueueUrl: expect.stringContaining('/deliveries'), DelaySeconds: 0 });
    const job = JSON.parse(messages[0].MessageBody!);
    expect(job).toMatchObject({ subscription_id: hook.id, attempt: 1, event });
    expect((await log(practice, hook.id)).map((e) => e.status)).toEqual(['pending']);

    // The attempt fails; the retry in 10 minutes goes out with that delay, due at its time.
    receiver.behave((request) => (request.path === path ? { status: 500 } : 'ok'));
    const now = new Date();
    const deliver = deliveryRecordHandler(queue, { now: () => now, schedule: [600] });
    const delivered = await processPartialResponse(
      { Records: [sqsRecord(messages[0].MessageBody)] },
      deliver,
      processor,
      { context },
    );
    expect(delivered.batchItemFailures).toEqual([]);
    expect(messages).toHaveLength(2);
    const retry = JSON.parse(messages[1].MessageBody!);
    expect(messages[1].DelaySeconds).toBe(600);
    expect(retry).toMatchObject({ attempt: 2, due_at: new Date(now.getTime() + 600_000).toISOString() });
    expect((await log(practice, hook.id)).map((e) => [e.attempt, e.status])).toEqual([
      [2, 'pending'],
      [1, 'failed'],
    ]);

    // Arriving 5 minutes early (a clock off): sent on again for the rest of its wait, nothing delivered.
    const requestsBefore = receiver.requests.length;
    const early = deliveryRecordHandler(queue, { now: () => new Date(now.getTime() + 300_000), schedule: [600] });
    await processPartialResponse({ Records: [sqsRecord(messages[1].MessageBody)] }, early, processor, { context });
    expect(receiver.requests.length).toBe(requestsBefore);
    expect(messages).toHaveLength(3);
    expect(messages[2].DelaySeconds).toBe(300);
    expect(JSON.parse(messages[2].MessageBody!)).toEqual(retry);

    // When due, it runs; the same message delivered twice (SQS is at-least-once) is sent once.
    receiver.behave(() => 'ok');
    const due = deliveryRecordHandler(queue, { now: () => new Date(now.getTime() + 600_000), schedule: [600] });
    await processPartialResponse({ Records: [sqsRecord(messages[2].MessageBody)] }, due, processor, { context });
    await processPartialResponse({ Records: [sqsRecord(messages[2].MessageBody)] }, due, processor, { context });
    expect(idsAt(receiver, path)).toEqual([event.id]);
    expect((await log(practice, hook.id)).map((e) => [e.attempt, e.status])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
  });
});
