import { mkdirSync, readFileSync } from 'node:fs';
import { repeatAsFunction } from '../aws/local-schedule';
import { appendFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { authorizeStandIn, runAsFunction } from '../aws/local-runtime';
import { clock } from '../clock';
import { config } from '../config';
import type { ContractEvent } from '../events/types';
import { EVENT_SOURCE } from '../events/types';
import { EVENT_RULES, rulesMatching, type EventRule } from '../events/rules';
import { logger } from '../log';
import { queueSettingsOf, workers } from '../workers';
import { DeliveryJob, fanOutAll, processDeliveryJob, type DeliveryOptions, type DeliveryQueue } from './jobs';
import { sweepWebhookRetries, type RetrySweepResult } from './retry-sweep';

/**
 * Webhook delivery inside the local server: the same fan-out and jobs as on AWS, with timers as
 * the queue and waiting jobs in a journal file under DATA_DIR (docs/decisions/0006-local-webhook-journal.md),
 * and the retry sweep (worker sweepWebhookRetries) on a timer: waits past 15 minutes are due items
 * in the table here too, and only the sweep puts them on the queue (docs/decisions/0021).
 * Rules, batch size and redrive come from lib/events/rules.ts and lib/workers, as the stack's do.
 */

/**
 * Attempts in flight at once by default: a laptop's share. On AWS up to the mapping's
 * MaximumConcurrency invocations of BatchSize jobs each run at once (a deliberate difference).
 */
export const LOCAL_DELIVERY_CONCURRENCY = 8;

/** Where jobs go after `maxReceiveCount` failed runs: the local `deliveries` dead-letter queue (JSON lines). */
export const DEAD_LETTER_FILE = 'webhook-dead-letters.jsonl';

/** The `deliveries` queue's settings, as the CDK stack deploys them (lib/workers). */
export function localDeliveriesQueue() {
  const { visibilityTimeoutSeconds, maxReceiveCount } = queueSettingsOf(workers.deliverWebhook);
  return { visibilityTimeoutSeconds, maxReceiveCount };
}

/** Fan-out's queue (the one the rules target) and how many of its events one run takes (its mapping's BatchSize). */
export function localFanOut() {
  return { queue: workers.fanOut.trigger.queue, batchSize: queueSettingsOf(workers.fanOut).batchSize };
}

/** An event as the bus carries it (EventBridge's envelope), for the rules to match. */
export const busEvent = (event: ContractEvent) => ({
  version: '0',
  source: EVENT_SOURCE,
  'detail-type': event.type,
  resources: [],
  detail: event,
});

/** The rules that send an event to fan-out's queue: one copy each, as EventBridge sends one per matching rule. */
export const fanOutRoutes = (event: ContractEvent, rules: readonly EventRule[] = EVENT_RULES) =>
  rulesMatching(busEvent(event), rules).filter((rule) => rule.target.queue === localFanOut().queue);

export interface LocalDeliveryOptions extends DeliveryOptions {
  /** Default: config DATA_DIR. */
  dataDir?: string;
  /** Attempts in flight at once (default LOCAL_DELIVERY_CONCURRENCY). */
  concurrency?: number;
  /** The bus rules (default: lib/events/rules.ts, those of the template). */
  rules?: readonly EventRule[];
  /** A job whose run throws comes back after this long (default: the queue's visibility timeout)... */
  visibilityTimeoutSeconds?: number;
  /** ...and goes to DEAD_LETTER_FILE after this many failed runs (default: the queue's redrive maxReceiveCount). */
  maxReceiveCount?: number;
  /** The retry sweep's interval (default: sweepWebhookRetries' schedule; infra/local/pipeline.ts runs it faster). */
  sweepEveryMs?: number;
  /** Called after each retry sweep (tests, diagnostics). */
  onSweep?: (result: RetrySweepResult) => void;
}

export interface LocalDelivery {
  /** Fans events out (those the bus rules route to webhooks); resolves once their jobs are journaled. */
  publish(events: ContractEvent[]): Promise<void>;
  /** Stops taking jobs, waits for attempts in flight, and leaves what is left in the journal. */
  stop(): Promise<void>;
  /** Jobs not finished yet (waiting, due or in flight). */
  pending(): number;
}

export const JOURNAL_FILE = 'webhook-jobs.json';

/** Node's timers take at most 2^31-1 ms (~24.8 days); a longer wait is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type QueueSettings = LocalDeliveryOptions & {
  concurrency: number;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
};

class LocalQueue implements DeliveryQueue {
  /** `receives`: failed runs so far (SQS's receive count; not journaled, so a restart resets it). */
  private readonly jobs = new Map<string, { job: DeliveryJob; timer?: NodeJS.Timeout; receives: number }>();
  private readonly ready: DeliveryJob[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** The journal write in progress, and the one that will follow it (shared by every change made meanwhile). */
  private writing: Promise<void> | null = null;
  private queuedWrite: Promise<void> | null = null;

  constructor(
    private readonly journal: string,
    private readonly deadLetters: string,
    private readonly options: QueueSettings,
  ) {}

  get size() {
    return this.jobs.size;
  }

  async send(job: DeliveryJob, delaySeconds: number): Promise<void> {
    await authorizeStandIn({ action: 'sqs:SendMessage', resource: 'queue:deliveries' });
    clearTimeout(this.jobs.get(job.delivery_id)?.timer);
    // A new message (a deferral is one too, as on SQS): its receive count starts again.
    this.jobs.set(job.delivery_id, { job, receives: 0 });
    this.arm(job.delivery_id, delaySeconds * 1000);
    await this.persist();
  }

  /** Jobs read back from the journal: each is due at its own `due_at` (now, if that has passed). */
  restore(jobs: DeliveryJob[]) {
    const now = (this.options.now ?? (() => new Date()))().getTime();
    for (const job of jobs) {
      this.jobs.set(job.delivery_id, { job, receives: 0 });
      this.arm(job.delivery_id, Date.parse(job.due_at) - now);
    }
  }

  private arm(id: string, delayMs: number) {
    const slot = this.jobs.get(id);
    if (!slot || this.stopped) return;
    clearTimeout(slot.timer);
    const wait = Math.max(0, delayMs);
    slot.timer = setTimeout(
      () => {
        slot.timer = undefined;
        if (wait > MAX_TIMER_MS) return this.arm(id, wait - MAX_TIMER_MS);
        this.ready.push(slot.job);
        this.pump();
      },
      Math.min(wait, MAX_TIMER_MS),
    );
  }

  private pump() {
    while (!this.stopped && this.inFlight.size < this.options.concurrency && this.ready.length > 0) {
      const job = this.ready.shift()!;
      const run = this.run(job).finally(() => {
        this.inFlight.delete(run);
        this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async run(job: DeliveryJob) {
    try {
      // A deferral re-sends the same job (same id): it stays in the journal with its new timer.
      const result = await runAsFunction('deliverWebhook', () => processDeliveryJob(job, this, this.options));
      // Deferred: sent again under its id. Anything else (scheduled in the table included) is off the queue.
      if (result !== 'deferred') this.jobs.delete(job.delivery_id);
      await this.persist();
    } catch (error) {
      // The table (or the disk) is unreachable. As SQS does with a failed message: it comes back
      // after the visibility timeout, and after maxReceiveCount failed runs goes to the dead letters.
      const slot = this.jobs.get(job.delivery_id);
      const receives = (slot?.receives ?? 0) + 1;
      if (slot) slot.receives = receives;
      const fields = {
        deliveryId: job.delivery_id,
        medspaId: job.medspa_id,
        subscriptionId: job.subscription_id,
        eventId: job.event.id,
        receives,
        error: (error as Error).message,
      };
      if (receives < this.options.maxReceiveCount) {
        logger.error('webhook job failed; it runs again after the visibility timeout', fields);
        this.arm(job.delivery_id, this.options.visibilityTimeoutSeconds * 1000);
        return;
      }
      try {
        await appendFile(this.deadLetters, `${JSON.stringify(job)}\n`, { mode: 0o600 });
        logger.error('webhook job failed too often; moved to the dead letters', { ...fields, file: this.deadLetters });
        this.jobs.delete(job.delivery_id);
        await this.persist();
      } catch {
        // The disk too: the job stays queued (unless already out) and runs again later.
        this.arm(job.delivery_id, this.options.visibilityTimeoutSeconds * 1000);
      }
    }
  }

  /**
   * Writes the journal atomically (a temp file renamed over it). A change made while a write is
   * under way joins the one write queued behind it, which snapshots the set when it starts.
   */
  persist(): Promise<void> {
    if (!this.writing) {
      const snapshot = JSON.stringify({ version: 1, jobs: [...this.jobs.values()].map((slot) => slot.job) });
      const temp = `${this.journal}.${process.pid}.tmp`;
      this.writing = writeFile(temp, snapshot, { mode: 0o600 })
        .then(() => rename(temp, this.journal))
        .finally(() => {
          this.writing = null;
        });
      return this.writing;
    }
    const next = () => {
      this.queuedWrite = null;
      return this.persist();
    };
    this.queuedWrite ??= this.writing.then(next, next);
    return this.queuedWrite;
  }

  async stop() {
    this.stopped = true;
    for (const slot of this.jobs.values()) clearTimeout(slot.timer);
    this.ready.length = 0;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.persist();
  }
}

function readJournal(file: string): DeliveryJob[] {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed = JSON.parse(raw) as { jobs?: unknown[] };
    return (parsed.jobs ?? []).flatMap((entry) => {
      const job = DeliveryJob.safeParse(entry);
      return job.success ? [job.data] : [];
    });
  } catch {
    logger.error('webhook journal unreadable; starting empty', { file });
    return [];
  }
}

/**
 * Starts local delivery: resumes the jobs journaled by the previous run, and answers `publish`
 * (called by the local stream poller with the events it made) and `stop` (at shutdown).
 */
export function startLocalDelivery(options: LocalDeliveryOptions = {}): LocalDelivery {
  const dataDir = options.dataDir ?? config().DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const journal = join(dataDir, JOURNAL_FILE);
  const redrive = localDeliveriesQueue();
  const queue = new LocalQueue(journal, join(dataDir, DEAD_LETTER_FILE), {
    ...options,
    concurrency: options.concurrency ?? LOCAL_DELIVERY_CONCURRENCY,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? redrive.visibilityTimeoutSeconds,
    maxReceiveCount: options.maxReceiveCount ?? redrive.maxReceiveCount,
  });
  queue.restore(readJournal(journal));
  const { batchSize } = localFanOut();

  // The retry sweep, one at a time: the next starts an interval after the previous one ended.
  const now = options.now ?? (() => clock().now());
  const sweeps = repeatAsFunction(
    'sweepWebhookRetries',
    options.sweepEveryMs ?? workers.sweepWebhookRetries.trigger.everyMinutes * 60_000,
    () => sweepWebhookRetries(now(), queue),
    options.onSweep,
  );

  return {
    async publish(events) {
      // EventBridge's PutEvents, with the publisher's role; the rules then route as the bus would,
      // and fan-out takes its queue's events a batch at a time, as its mapping hands them over.
      await authorizeStandIn({ action: 'events:PutEvents', resource: 'bus' });
      // Batches run side by side, as concurrent invocations of fan-out would.
      const queued = events.flatMap((event) => fanOutRoutes(event, options.rules).map(() => event));
      const batches = Array.from({ length: Math.ceil(queued.length / batchSize) }, (_, i) =>
        queued.slice(i * batchSize, (i + 1) * batchSize),
      );
      await Promise.all(batches.map((routed) => runAsFunction('fanOut', () => fanOutAll(routed, queue, options))));
    },
    async stop() {
      await sweeps.stop();
      await queue.stop();
    },
    pending: () => queue.size,
  };
}
