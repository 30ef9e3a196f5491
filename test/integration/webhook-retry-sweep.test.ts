import { randomUUID } from 'node:crypto';
import type { SendMessageCommand } from '@aws-sdk/client-sqs';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { resetConfig } from '../../lib/config';
import { ddb, tableName } from '../../lib/db/client';
import { webhookRetrySweepCheckpointKey } from '../../lib/db/keys';
import { claimWebhookRetry, webhookRetriesDueIn } from '../../lib/db/webhook-retries';
import { utcMinuteOf } from '../../lib/domain/reminders';
import type { ContractEvent } from '../../lib/events/types';
import { fanOut, MAX_QUEUE_DELAY_SECONDS, processDeliveryJob, type DeliveryJob } from '../../lib/webhooks/jobs';
import { RETRY_CLAIM_SECONDS, sweepWebhookRetries } from '../../lib/webhooks/retry-sweep';
import { SqsDeliveryQueue } from '../../lib/webhooks/sqs-queue';
import { deliveryRecordHandler } from '../../lib/webhooks/workers';
import { startLocalDelivery } from '../../lib/webhooks/local-delivery';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../fixtures/wait';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { startReceiver, type Receiver } from '../fixtures/receiver';
import { useOwnTable } from '../fixtures/table-stream';

// The sweep reads table-wide partitions (due minutes, its checkpoint): this file has its own table.
useOwnTable();

/**
 * Webhook retries past SQS's 15 minutes wait as due items in their minute's partition and the retry
 * sweep sends them (docs/decisions/0021-webhook-retries-in-minute-partitions.md): on DynamoDB Local,
 * with the `deliveries` queue recorded instead of sent, the clock injected, the workers run as
 * their functions (their roles checked).
 */

/** The contract's schedule (config default): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
const SCHEDULE = [5, 300, 1800, 7200, 18_000, 36_000];

let receiver: Receiver;
beforeAll(async () => {
  process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
  resetConfig();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});
// Each test travels in time on its own: the sweep's checkpoint starts afresh.
beforeEach(async () => {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: webhookRetrySweepCheckpointKey() }));
});

/** An event made a second before `at`: the log (newest first) lists its first attempt after the retries made from `at` on. */
const makeEvent = (medspaId: string, at: Date): ContractEvent => ({
  id: `evt_${randomUUID().replace(/-/g, '')}`,
  type: 'payment.received',
  created_at: new Date(at.getTime() - 1000).toISOString(),
  medspa_id: medspaId,
  data: { object: { id: randomUUID() } },
});

const sqsRecord = (body: string): SQSRecord =>
  ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body,
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:deliveries',
    awsRegion: 'us-east-1',
  }) as SQSRecord;

/** SqsDeliveryQueue over a client that records SendMessage inputs (and the instant each was sent) instead of calling AWS. */
const recordingSqs = (clock: { now: Date }) => {
  const messages: Array<{ body: string; delaySeconds: number; sentAt: Date }> = [];
  const queue = new SqsDeliveryQueue('https://sqs.us-east-1.amazonaws.com/000000000000/deliveries', {
    send: async (command: SendMessageCommand) => {
      messages.push({ body: command.input.MessageBody!, delaySeconds: command.input.DelaySeconds!, sentAt: clock.now });
      return {};
    },
  } as never);
  return { queue, messages };
};

const subscribe = async (practice: TestPractice, path: string) => {
  const response = await call('POST', '/v1/webhooks', {
    token: practice.adminToken,
    body: { url: receiver.url(path), events: ['payment.received'] },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string };
};

const log = async (practice: TestPractice, webhookId: string) => {
  const response = await call('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`, { token: practice.adminToken });
  return response.body.data as Array<{ id: string; attempt: number; status: string; next_attempt_at: string | null }>;
};

/** deliverWebhook's record handler at `now`, run as its function (its role checked). */
const deliverAt =
  (queue: SqsDeliveryQueue, now: Date, schedule: readonly number[], random?: () => number) => (body: string) =>
    runAsFunction('deliverWebhook', () =>
      deliveryRecordHandler(queue, { now: () => now, schedule, random })(sqsRecord(body)),
    );

const sweepAt = (queue: SqsDeliveryQueue, now: Date, options?: Parameters<typeof sweepWebhookRetries>[2]) =>
  runAsFunction('sweepWebhookRetries', () => sweepWebhookRetries(now, queue, options));

/** A subscription whose receiver fails, and its first attempt's job (fanned out at t0). */
async function failingDelivery(clock: { now: Date }, queue: SqsDeliveryQueue) {
  const practice = await makePractice();
  const path = `/down-${randomUUID()}`;
  const hook = await subscribe(practice, path);
  receiver.behave((request) => (request.path.startsWith('/down-') ? { status: 500 } : 'ok'));
  await runAsFunction('fanOut', () => fanOut(makeEvent(practice.medspaId, clock.now), queue, { now: () => clock.now }));
  return { practice, hook, path };
}

describe('retries past 15 minutes wait in the table, not on the queue', () => {
  it('a 2 h retry is one due item, not re-sent hop by hop; the sweep sends it in its minute, once, and it runs then', async () => {
    const t0 = new Date();
    const clock = { now: t0 };
    const { queue, messages } = recordingSqs(clock);
    const { practice, hook, path } = await failingDelivery(clock, queue);
    expect(messages).toHaveLength(1);

    // The attempt fails: the 2 h retry is logged `pending` with a due item in its minute, and no message.
    await deliverAt(queue, t0, [7200])(messages[0].body);
    expect(messages).toHaveLength(1);
    const dueAt = new Date(t0.getTime() + 7200_000);
    const entries = await log(practice, hook.id);
    expect(entries.map((e) => [e.attempt, e.status])).toEqual([
      [2, 'pending'],
      [1, 'failed'],
    ]);
    expect(entries[0].next_attempt_at).toBe(dueAt.toISOString());
    const dues = await webhookRetriesDueIn(utcMinuteOf(dueAt));
    expect(dues).toMatchObject([
      {
        medspa_id: practice.medspaId,
        subscription_id: hook.id,
        delivery_id: entries[0].id,
        due_at: dueAt.toISOString(),
      },
    ]);
    // Ids and times only: the event stays in the practice's log.
    expect(JSON.stringify(dues)).not.toContain('payment.received');

    // Sweeps before its minute send nothing (each minute from the first run's look-back is read once).
    for (const minutes of [1, 15, 60, 119]) {
      clock.now = new Date(t0.getTime() + minutes * 60_000);
      const result = await sweepAt(queue, clock.now, { maxMinutes: 240 });
      expect(result.sent, `${minutes} min`).toBe(0);
    }
    expect(messages).toHaveLength(1);

    // In its minute: sent once with the rest of its wait (under a minute), the due item deleted.
    clock.now = new Date(Math.floor(dueAt.getTime() / 60_000) * 60_000);
    expect(await sweepAt(queue, clock.now)).toMatchObject({ sent: 1, dropped: 0, skipped: 0 });
    expect(messages).toHaveLength(2);
    expect(messages[1].delaySeconds).toBe(Math.ceil((dueAt.getTime() - clock.now.getTime()) / 1000));
    expect(messages[1].delaySeconds).toBeLessThanOrEqual(60);
    const retry = JSON.parse(messages[1].body) as DeliveryJob;
    expect(retry).toMatchObject({ attempt: 2, delivery_id: entries[0].id, due_at: dueAt.toISOString() });
    expect(await webhookRetriesDueIn(utcMinuteOf(dueAt))).toEqual([]);
    expect((await sweepAt(queue, new Date(clock.now.getTime() + 30_000))).sent).toBe(0);
    expect(messages).toHaveLength(2);

    // It runs when due; a repeat of the message (SQS is at least once) is not sent again.
    receiver.behave(() => 'ok');
    await deliverAt(queue, dueAt, [7200])(messages[1].body);
    await deliverAt(queue, dueAt, [7200])(messages[1].body);
    expect(receiver.accepted.filter((r) => r.path === path)).toHaveLength(1);
    expect((await log(practice, hook.id)).map((e) => [e.attempt, e.status])).toEqual([
      [2, 'succeeded'],
      [1, 'failed'],
    ]);
  });

  it('a job that comes back with more than 15 minutes to wait (sent before due items existed) moves into the table', async () => {
    const t0 = new Date();
    const clock = { now: t0 };
    const { queue, messages } = recordingSqs(clock);
    const { practice, hook } = await failingDelivery(clock, queue);
    const first = JSON.parse(messages[0].body) as DeliveryJob;
    const job: DeliveryJob = {
      ...first,
      delivery_id: randomUUID(),
      delivery_created_at: t0.toISOString(),
      attempt: 2,
      due_at: new Date(t0.getTime() + 5 * 3600_000).toISOString(),
    };
    expect(await runAsFunction('deliverWebhook', () => processDeliveryJob(job, queue, { now: () => t0 }))).toBe(
      'scheduled',
    );
    expect(messages).toHaveLength(1);
    expect((await log(practice, hook.id)).find((e) => e.id === job.delivery_id)).toMatchObject({ status: 'pending' });
    expect(await webhookRetriesDueIn(utcMinuteOf(job.due_at))).toMatchObject([{ delivery_id: job.delivery_id }]);
    // Its minute's sweep sends it, as it would any retry.
    expect(await sweepAt(queue, new Date(job.due_at))).toMatchObject({ sent: 1 });
    expect(JSON.parse(messages[1].body)).toEqual(job);
  });
});

describe('the local server (npm start)', () => {
  it('a 20-minute retry waits in the table; the local sweep, as its function, puts it on the in-process queue when due', async () => {
    const t0 = new Date();
    const clock = { now: t0 };
    const practice = await makePractice();
    const path = `/local-${randomUUID()}`;
    const hook = await subscribe(practice, path);
    receiver.behave((request) => (request.path === path ? { status: 500 } : 'ok'));
    const sweeps: number[] = [];
    const delivery = startLocalDelivery({
      dataDir: mkdtempSync(join(tmpdir(), 'retry-sweep-')),
      schedule: [1200],
      now: () => clock.now,
      sweepEveryMs: 50,
      onSweep: (result) => sweeps.push(result.sent),
    });
    try {
      await delivery.publish([makeEvent(practice.medspaId, clock.now)]);
      await waitFor('the first attempt to fail', async () => (await log(practice, hook.id)).length === 2);
      // Off the in-process queue: the retry is a due item.
      await waitFor('the queue to drain', () => delivery.pending() === 0);
      const [pending] = await log(practice, hook.id);
      expect(await webhookRetriesDueIn(utcMinuteOf(pending.next_attempt_at!))).toHaveLength(1);
      await waitFor('a sweep before it is due', () => sweeps.length > 0);
      expect(sweeps.every((sent) => sent === 0)).toBe(true);
      receiver.behave(() => 'ok');
      clock.now = new Date(pending.next_attempt_at!);
      await waitFor('the retry at the receiver', () => receiver.accepted.some((r) => r.path === path));
      // The sweep reports once it has deleted the item and moved its checkpoint: after the send.
      await waitFor('the sweep that sent it to report', () => sweeps.some((sent) => sent > 0));
      expect(sweeps.filter((sent) => sent > 0)).toEqual([1]);
      // The receiver answered before the delivery worker logged it: wait for the log, not a guess.
      await waitFor('the retry logged', async () => (await log(practice, hook.id))[0]?.status !== 'pending');
      expect((await log(practice, hook.id)).map((e) => [e.attempt, e.status])).toEqual([
        [2, 'succeeded'],
        [1, 'failed'],
      ]);
    } finally {
      await delivery.stop();
    }
  });
});

describe('the retry sweep under concurrency and failure', () => {
  it('concurrent sweeps send each due retry once', async () => {
    const t0 = new Date();
    const clock = { now: t0 };
    const { queue, messages } = recordingSqs(clock);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = messages.length;
      await failingDelivery(clock, queue);
      await deliverAt(queue, t0, [3600])(messages[before].body);
      expect(messages).toHaveLength(before + 1);
    }
    const fanned = messages.length;
    for (const message of messages) ids.push((JSON.parse(message.body) as DeliveryJob).delivery_id);
    const due = new Date(t0.getTime() + 3600_000 + 60_000);
    clock.now = due;
    const results = await Promise.all(Array.from({ length: 6 }, () => sweepAt(queue, due, { maxMinutes: 240 })));
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(3);
    const sent = messages.slice(fanned).map((m) => JSON.parse(m.body) as DeliveryJob);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((job) => job.delivery_id)).size).toBe(3);
    expect(sent.every((job) => job.attempt === 2 && !ids.includes(job.delivery_id))).toBe(true);
  });

  it('a due item held by a sweep that died is left alone until its claim lapses, then sent by the next sweep', async () => {
    const t0 = new Date();
    const clock = { now: t0 };
    const { queue, messages } = recordingSqs(clock);
    await failingDelivery(clock, queue);
    await deliverAt(queue, t0, [1800])(messages[0].body);
    const dueAt = new Date(t0.getTime() + 1800_000);
    const [due] = await webhookRetriesDueIn(utcMinuteOf(dueAt));
    const late = new Date(dueAt.getTime() + 60_000);
    // A sweep took it and died before sending.
    const lapses = new Date(late.getTime() + RETRY_CLAIM_SECONDS * 1000);
    expect(await claimWebhookRetry(due, late.toISOString(), lapses.toISOString())).toBe(true);
    expect(await sweepAt(queue, new Date(late.getTime() + 10_000), { maxMinutes: 240 })).toMatchObject({
      sent: 0,
      skipped: 1,
    });
    // The checkpoint stayed before its minute: a sweep after the claim lapsed still reads it.
    expect(await sweepAt(queue, new Date(lapses.getTime() + 1000))).toMatchObject({ sent: 1, skipped: 0 });
    expect(messages).toHaveLength(2);
    expect(messages[1].delaySeconds).toBe(0);
  });
});

describe('what a failing delivery costs in SQS messages', () => {
  /** Messages the old hop-by-hop queue sent for the same waits: one per 15 minutes of each wait, plus the first. */
  const hopByHop = (waits: number[]) => 1 + waits.reduce((sum, w) => sum + Math.ceil(w / MAX_QUEUE_DELAY_SECONDS), 0);

  it.each([
    ['the schedule as written', 0.5],
    ['every wait 20% longer', 1],
  ])('the whole schedule (%s): 7 attempts, at most 7 messages', async (_, random) => {
    const t0 = new Date();
    const clock = { now: t0 };
    const { queue, messages } = recordingSqs(clock);
    const { practice, hook, path } = await failingDelivery(clock, queue);
    const waits: number[] = [];
    const results: string[] = [];
    let handled = 0;
    let minutesSwept = 0;
    // Runs the simulated deployment: each message when it becomes visible, each due item in its minute.
    while (results.length < 20) {
      if (handled < messages.length) {
        const message = messages[handled++];
        clock.now = new Date(message.sentAt.getTime() + message.delaySeconds * 1000);
        const before = messages.length;
        const entriesBefore = (await log(practice, hook.id)).length;
        await deliverAt(queue, clock.now, SCHEDULE, () => random)(message.body);
        const entries = await log(practice, hook.id);
        results.push(entries.length > entriesBefore ? 'retrying' : entries[0].status);
        if (entries[0].status === 'pending') {
          waits.push((Date.parse(entries[0].next_attempt_at!) - clock.now.getTime()) / 1000);
          // A long wait: no message until the sweep of its minute.
          if (messages.length === before) {
            const sweepAtMs = Math.floor(Date.parse(entries[0].next_attempt_at!) / 60_000) * 60_000;
            minutesSwept += Math.round((sweepAtMs - clock.now.getTime()) / 60_000);
            clock.now = new Date(sweepAtMs);
            expect((await sweepAt(queue, clock.now, { maxMinutes: 24 * 60 })).sent).toBe(1);
          }
        }
        continue;
      }
      break;
    }
    const attempts = await log(practice, hook.id);
    expect(attempts.map((e) => e.status)).toEqual(Array(7).fill('failed'));
    expect(receiver.requests.filter((r) => r.path === path)).toHaveLength(7);
    expect(waits.map((w, i) => Math.round(w / SCHEDULE[i] / (1 + 0.2 * (2 * random - 1))))).toEqual(Array(6).fill(1));
    // One message per attempt; none of them hops.
    expect(messages.every((m) => m.delaySeconds <= MAX_QUEUE_DELAY_SECONDS)).toBe(true);
    expect(messages).toHaveLength(7);
    // Before: 73 messages for the schedule as written, 88 with every wait 20% longer.
    expect(hopByHop(waits)).toBe(random === 1 ? 88 : 73);
    expect(minutesSwept).toBeGreaterThan(0);
  });
});
