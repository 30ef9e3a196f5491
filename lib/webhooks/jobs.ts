import type { RequestWrites } from '../db/request-writes';
import { createHash, randomUUID } from 'node:crypto';
import * as z from '../schemas/zod';
import { clock } from '../clock';
import { config } from '../config';
import { loadSecretKeys } from '../crypto/named-secret';
import { decryptSecret } from '../crypto/webhook-secrets';
import {
  autoDisableWebhook,
  readDeliveryJob,
  practiceWebhooks,
  putPendingDeliveries,
  recordDeliveryFailure,
  recordDeliverySuccess,
  saveDeliveryAttempt,
} from '../db/webhooks';
import { putWebhookRetryDue, webhookRetryDueOf } from '../db/webhook-retries';
import type { DeliveryRecord, WebhookRecord } from '../domain/records';
import { AUTO_DISABLE_AFTER_MS, retryDelay, shouldAutoDisable, wantsEvent } from '../domain/webhooks';
import { EVENT_TYPES, type ContractEvent } from '../events/types';
import { logger } from '../log';
import type { Lookup } from './address';
import { sendWebhook, type AttemptOutcome } from './deliver';

/**
 * Webhook delivery as queued jobs: fan-out turns one event into one job per interested
 * subscription, and each job is one attempt that, when it fails, enqueues the next attempt with
 * its delay. So every subscriber retries on its own schedule and a slow one holds up nobody.
 * The queue is SQS on AWS (./sqs-queue) and timers plus a journal file locally (./local-delivery).
 */

/** One attempt of one event to one subscription: the whole message on the queue. */
export const DeliveryJob = z.object({
  medspa_id: z.string(),
  subscription_id: z.string(),
  /** The log entry this attempt fills in (`pending` until it runs). */
  delivery_id: z.string(),
  delivery_created_at: z.string(),
  attempt: z.number().check(z.int(), z.gte(1)),
  /** Not before this instant (ISO): a queue that cannot wait that long hands the job back early. */
  due_at: z.string(),
  event: z.object({
    id: z.string().check(z.minLength(1)),
    type: z.enum([...EVENT_TYPES, 'webhook.test']),
    created_at: z.string(),
    medspa_id: z.string(),
    data: z.object({
      object: z.record(z.string(), z.unknown()),
      previous: z.optional(z.record(z.string(), z.unknown())),
    }),
  }),
});
export type DeliveryJob = z.output<typeof DeliveryJob>;

/**
 * The longest wait a job spends on the queue (SQS's longest DelaySeconds). A longer one waits in the
 * table as a due item instead, and the retry sweep (./retry-sweep.ts) puts it on the queue in its
 * minute (docs/decisions/0021-webhook-retries-in-minute-partitions.md).
 */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** Where jobs wait: `delaySeconds` from now, at most MAX_QUEUE_DELAY_SECONDS (fractions allowed; a queue may round up). */
export interface DeliveryQueue {
  send(job: DeliveryJob, delaySeconds: number): Promise<void>;
}

/** A contract event as carried on the bus (EventBridge `detail`): checked before it is fanned out. */
export const ContractEventSchema = DeliveryJob.shape.event;

export interface DeliveryOptions {
  /** Default: the process clock (lib/clock). */
  now?: () => Date;
  /** Seconds between attempts; default from config (WEBHOOK_RETRY_SCHEDULE). */
  schedule?: readonly number[];
  /**
   * Spreads each wait by ±20% (lib/domain/webhooks.ts `retryDelay`): the workers pass Math.random;
   * without it the waits are the schedule's exactly (tests).
   */
  random?: () => number;
  timeoutMs?: number;
  allowLocal?: boolean;
  lookup?: Lookup;
}

const settings = (options: DeliveryOptions) => {
  const { WEBHOOK_RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS, ALLOW_LOCAL_WEBHOOKS } = config();
  return {
    now: options.now ?? (() => clock().now()),
    schedule: options.schedule ?? WEBHOOK_RETRY_SCHEDULE,
    random: options.random,
    timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    allowLocal: options.allowLocal ?? ALLOW_LOCAL_WEBHOOKS,
    lookup: options.lookup,
  };
};

/**
 * A v4-shaped UUID derived from its inputs, so a fan-out that runs twice for one event (an SQS
 * redelivery) names the same log entries and the second run finds them instead of adding more.
 */
export function derivedId(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type JobIdentity = Pick<
  DeliveryJob,
  'delivery_id' | 'delivery_created_at' | 'attempt' | 'medspa_id' | 'subscription_id' | 'event'
>;

/** A delivery log entry of this job's attempt, in the given state. */
const entryOf = (
  job: JobIdentity,
  state: Pick<DeliveryRecord, 'status' | 'response_status' | 'duration_ms' | 'error' | 'next_attempt_at'>,
): DeliveryRecord => ({
  id: job.delivery_id,
  medspa_id: job.medspa_id,
  subscription_id: job.subscription_id,
  event_id: job.event.id,
  event_type: job.event.type,
  attempt: job.attempt,
  ...state,
  created_at: job.delivery_created_at,
  event: job.event,
});

const pendingEntry = (job: DeliveryJob): DeliveryRecord =>
  entryOf(job, {
    status: 'pending',
    response_status: null,
    duration_ms: null,
    error: null,
    next_attempt_at: job.due_at,
  });

/**
 * Sends an event to every enabled subscription of its practice that takes its type: ONE Query for
 * the subscriptions, one job each (sent before its `pending` log entry is written, so a logged
 * attempt always has its job). Answers the number of jobs.
 */
export async function fanOut(
  event: ContractEvent,
  queue: DeliveryQueue,
  options: DeliveryOptions = {},
): Promise<number> {
  return fanOutTo(event, await practiceWebhooks(event.medspa_id), queue, options);
}

/** Several events: still one Query per practice, shared by that practice's events. */
export async function fanOutAll(
  events: readonly ContractEvent[],
  queue: DeliveryQueue,
  options: DeliveryOptions = {},
): Promise<number> {
  const byPractice = new Map<string, ContractEvent[]>();
  for (const event of events) byPractice.set(event.medspa_id, [...(byPractice.get(event.medspa_id) ?? []), event]);
  let jobs = 0;
  for (const [medspaId, practiceEvents] of byPractice) {
    const subscriptions = await practiceWebhooks(medspaId);
    // A few at a time: each is a queue send and a log write per interested subscription.
    for (let i = 0; i < practiceEvents.length; i += 8) {
      const counts = await Promise.all(
        practiceEvents.slice(i, i + 8).map((event) => fanOutTo(event, subscriptions, queue, options)),
      );
      jobs += counts.reduce((sum, n) => sum + n, 0);
    }
  }
  return jobs;
}

async function fanOutTo(
  event: ContractEvent,
  all: readonly WebhookRecord[],
  queue: DeliveryQueue,
  options: DeliveryOptions,
): Promise<number> {
  const { now } = settings(options);
  const subscriptions = all.filter((sub) => sub.enabled && wantsEvent(sub.events, event.type));
  if (subscriptions.length === 0) return 0;
  const at = now().toISOString();
  const jobs: DeliveryJob[] = subscriptions.map((sub) => ({
    medspa_id: event.medspa_id,
    subscription_id: sub.id,
    delivery_id: derivedId(event.id, sub.id),
    // The event's own time: deterministic like the id, so a repeated fan-out hits the same entry.
    delivery_created_at: event.created_at,
    attempt: 1,
    due_at: at,
    event,
  }));
  await Promise.all(jobs.map((job) => queue.send(job, 0)));
  await putPendingDeliveries(jobs.map(pendingEntry));
  return jobs.length;
}

/** The secrets that sign now: the current one, and the previous one within 24 h of a rotation. */
function signingSecrets(sub: WebhookRecord, now: Date): string[] {
  const context = `${sub.medspa_id}:${sub.id}`;
  const secrets = [decryptSecret(sub.secret_enc, context)];
  if (
    sub.previous_secret_enc &&
    sub.previous_secret_expires_at &&
    Date.parse(sub.previous_secret_expires_at) > now.getTime()
  ) {
    secrets.push(decryptSecret(sub.previous_secret_enc, context));
  }
  return secrets;
}

const attempt = async (
  sub: WebhookRecord,
  event: ContractEvent,
  now: Date,
  options: ReturnType<typeof settings>,
): Promise<AttemptOutcome> => {
  // The service key that opens the subscription's signing secret: read at first use, then kept.
  await loadSecretKeys('webhook');
  return sendWebhook({
    url: sub.url,
    event,
    secrets: signingSecrets(sub, now),
    now,
    timeoutMs: options.timeoutMs,
    allowLocal: options.allowLocal,
    lookup: options.lookup,
  });
};

/** Successes heal; failures start (or continue) a streak, and a 3-day streak disables. */
async function recordHealth(sub: WebhookRecord, ok: boolean, now: Date): Promise<void> {
  const at = now.toISOString();
  if (ok) {
    // Written when it matters (a streak to end) or hourly, not on every success: the item stays cold.
    const stale = !sub.last_success_at || now.getTime() - Date.parse(sub.last_success_at) > 3600_000;
    if (sub.first_failure_at || stale) await recordDeliverySuccess(sub.medspa_id, sub.id, at);
    return;
  }
  const since = sub.first_failure_at ?? (await recordDeliveryFailure(sub.medspa_id, sub.id, at));
  if (!since || !sub.enabled || !shouldAutoDisable(since, now)) return;
  const reason = `Every delivery failed for ${AUTO_DISABLE_AFTER_MS / 86_400_000} days (since ${since}); re-enable with PATCH {"enabled": true}`;
  if (await autoDisableWebhook(sub.medspa_id, sub.id, since, reason, at)) {
    logger.warn('webhook subscription disabled', {
      medspaId: sub.medspa_id,
      subscriptionId: sub.id,
      failingSince: since,
    });
  }
}

const finished = (job: JobIdentity, outcome: AttemptOutcome): DeliveryRecord =>
  entryOf(job, {
    status: outcome.ok ? 'succeeded' : 'failed',
    response_status: outcome.response_status,
    duration_ms: outcome.duration_ms,
    error: outcome.error,
    next_attempt_at: null,
  });

const logAttempt = (entry: DeliveryRecord) =>
  logger.info('webhook attempt', {
    medspaId: entry.medspa_id,
    subscriptionId: entry.subscription_id,
    deliveryId: entry.id,
    eventId: entry.event_id,
    eventType: entry.event_type,
    attempt: entry.attempt,
    status: entry.status,
    responseStatus: entry.response_status,
    durationMs: entry.duration_ms,
    error: entry.error,
  });

/**
 * `deferred`: back on the queue for the rest of its wait; `scheduled`: off the queue, waiting in the
 * table for the retry sweep (more than MAX_QUEUE_DELAY_SECONDS of its wait left).
 */
export type JobResult = 'deferred' | 'scheduled' | 'dropped' | 'duplicate' | 'succeeded' | 'retrying' | 'gave_up';

/**
 * Runs one job: early → back on the queue for the rest of its wait, or into the table when that is
 * longer than the queue can wait (with its `pending` entry, written if missing); subscription deleted → dropped;
 * already logged as done → a duplicate message, skipped; disabled or no longer subscribed → logged
 * as failed without a call; otherwise one attempt, logged, and on failure the next one enqueued
 * (sent before it is logged) or, past MAX_QUEUE_DELAY_SECONDS, its due item written in the same
 * transaction as the log, until the schedule runs out. Throws only when the table is unreachable,
 * and then the queue's redelivery runs the job again (at least once).
 */
export async function processDeliveryJob(
  job: DeliveryJob,
  queue: DeliveryQueue,
  options: DeliveryOptions = {},
): Promise<JobResult> {
  const opts = settings(options);
  const now = opts.now();
  const wait = (Date.parse(job.due_at) - now.getTime()) / 1000;
  if (wait > MAX_QUEUE_DELAY_SECONDS) {
    // Only a job sent before due items existed, or a clock far off: its entry is written if missing.
    const entry = pendingEntry(job);
    await putPendingDeliveries([entry]);
    await putWebhookRetryDue(webhookRetryDueOf(entry, job.due_at));
    return 'scheduled';
  }
  if (wait > 0) {
    await queue.send(job, wait);
    return 'deferred';
  }
  const { subscription: sub, logged } = await readDeliveryJob({
    ...job,
    id: job.delivery_id,
    created_at: job.delivery_created_at,
  });
  if (!sub) {
    logger.info('webhook job dropped: subscription deleted', {
      medspaId: job.medspa_id,
      subscriptionId: job.subscription_id,
      eventId: job.event.id,
    });
    return 'dropped';
  }
  if (logged && logged.status !== 'pending') return 'duplicate';
  if (!sub.enabled || !wantsEvent(sub.events, job.event.type)) {
    const entry = finished(job, {
      ok: false,
      response_status: null,
      duration_ms: 0,
      error: sub.enabled ? 'subscription no longer takes this event type' : 'subscription disabled',
    });
    await saveDeliveryAttempt(entry);
    logAttempt(entry);
    return 'dropped';
  }

  const outcome = await attempt(sub, job.event, now, opts);
  const entry = finished(job, outcome);
  let result: JobResult = 'succeeded';
  if (!outcome.ok) {
    const delay = retryDelay(opts.schedule, job.attempt, opts.random);
    if (delay === null) {
      result = 'gave_up';
      await saveDeliveryAttempt(entry);
      logger.warn('webhook delivery given up', {
        medspaId: job.medspa_id,
        subscriptionId: sub.id,
        eventId: job.event.id,
        attempts: job.attempt,
      });
    } else {
      result = 'retrying';
      const next: DeliveryJob = {
        ...job,
        delivery_id: randomUUID(),
        delivery_created_at: now.toISOString(),
        attempt: job.attempt + 1,
        due_at: new Date(now.getTime() + delay * 1000).toISOString(),
      };
      entry.next_attempt_at = next.due_at;
      const nextEntry = pendingEntry(next);
      if (delay > MAX_QUEUE_DELAY_SECONDS) {
        // Waits in its due minute's partition, written with the log: no message until the sweep sends it.
        await saveDeliveryAttempt(entry, nextEntry, undefined, webhookRetryDueOf(nextEntry, next.due_at));
      } else {
        await queue.send(next, delay);
        await saveDeliveryAttempt(entry, nextEntry);
      }
    }
  } else {
    await saveDeliveryAttempt(entry);
  }
  logAttempt(entry);
  await recordHealth(sub, outcome.ok, now);
  return result;
}

/**
 * One attempt made right now, outside any schedule (`POST .../test`, `.../retry`): logged, counted
 * for the subscription's health, never retried automatically. Sent even while the subscription is
 * disabled, so its owner can check the receiver before re-enabling it.
 */
export async function deliverOnce(
  sub: WebhookRecord,
  event: ContractEvent,
  attemptNumber: number,
  options: DeliveryOptions = {},
  writes?: RequestWrites,
): Promise<DeliveryRecord> {
  const opts = settings(options);
  const now = opts.now();
  const outcome = await attempt(sub, event, now, opts);
  const entry = finished(
    {
      delivery_id: randomUUID(),
      delivery_created_at: now.toISOString(),
      attempt: attemptNumber,
      medspa_id: sub.medspa_id,
      subscription_id: sub.id,
      event,
    },
    outcome,
  );
  // The request's own writes (Idempotency-Key marker, audit entry) commit with the logged attempt.
  await saveDeliveryAttempt(entry, undefined, writes);
  logAttempt(entry);
  await recordHealth(sub, outcome.ok, now);
  return entry;
}
