import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { authorizeStandIn, runAsFunction } from '../aws/local-runtime';
import { config } from '../config';
import type { ContractEvent } from '../events/types';
import { EVENT_SOURCE } from '../events/types';
import { rulesMatching } from '../events/rules';
import { logger } from '../log';
import { DeliveryJob, fanOutAll, processDeliveryJob, type DeliveryOptions, type DeliveryQueue } from './jobs';

/**
 * Webhook delivery inside the local server: the same fan-out and jobs as on AWS, with timers as
 * the queue. Jobs waiting (scheduled retries included) are kept in a journal file under DATA_DIR,
 * rewritten whenever the set changes and read back on start, so a restart loses nothing. A job
 * leaves the journal only after its attempt is logged and its follow-up (if any) is in; a crash
 * in between repeats an attempt at worst (at-least-once, like SQS), never drops one.
 *
 * Chosen over re-deriving from the delivery log's `pending` entries: those live in one partition
 * per subscription, and finding them all on start would take a Scan or a cross-practice index.
 */

export interface LocalDeliveryOptions extends DeliveryOptions {
  /** Default: config DATA_DIR. */
  dataDir?: string;
  /** Attempts in flight at once (default 8). */
  concurrency?: number;
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

class LocalQueue implements DeliveryQueue {
  private readonly jobs = new Map<string, { job: DeliveryJob; timer?: NodeJS.Timeout }>();
  private readonly ready: DeliveryJob[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** The journal write in progress, and the one that will follow it (shared by every change made meanwhile). */
  private writing: Promise<void> | null = null;
  private queuedWrite: Promise<void> | null = null;

  constructor(
    private readonly journal: string,
    private readonly options: LocalDeliveryOptions & { concurrency: number },
  ) {}

  get size() {
    return this.jobs.size;
  }

  async send(job: DeliveryJob, delaySeconds: number): Promise<void> {
    await authorizeStandIn({ action: 'sqs:SendMessage', resource: 'queue:deliveries' });
    clearTimeout(this.jobs.get(job.delivery_id)?.timer);
    this.jobs.set(job.delivery_id, { job });
    this.arm(job.delivery_id, delaySeconds * 1000);
    await this.persist();
  }

  /** Jobs read back from the journal: each is due at its own `due_at` (now, if that has passed). */
  restore(jobs: DeliveryJob[]) {
    const now = (this.options.now ?? (() => new Date()))().getTime();
    for (const job of jobs) {
      this.jobs.set(job.delivery_id, { job });
      this.arm(job.delivery_id, Date.parse(job.due_at) - now);
    }
  }

  private arm(id: string, delayMs: number) {
    const slot = this.jobs.get(id);
    if (!slot || this.stopped) return;
    clearTimeout(slot.timer);
    const wait = Math.max(0, delayMs);
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      if (wait > MAX_TIMER_MS) return this.arm(id, wait - MAX_TIMER_MS);
      this.ready.push(slot.job);
      this.pump();
    }, Math.min(wait, MAX_TIMER_MS));
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
      if (result !== 'deferred') this.jobs.delete(job.delivery_id);
      await this.persist();
    } catch (error) {
      // The table (or the disk) is unreachable: keep the job and try it again shortly.
      logger.error('webhook job failed; retrying in 5 s', { deliveryId: job.delivery_id, error: (error as Error).message });
      this.arm(job.delivery_id, 5000);
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
  const queue = new LocalQueue(journal, { ...options, concurrency: options.concurrency ?? 8 });
  queue.restore(readJournal(journal));

  return {
    async publish(events) {
      // EventBridge's PutEvents, with the publisher's role; the rules then route as the bus would.
      await authorizeStandIn({ action: 'events:PutEvents', resource: 'bus' });
      const routed = events.filter((event) => rulesMatching({ source: EVENT_SOURCE, 'detail-type': event.type, detail: event }).some((rule) => rule.target.queue === 'events'));
      await runAsFunction('fanOut', () => fanOutAll(routed, queue, options));
    },
    stop: () => queue.stop(),
    pending: () => queue.size,
  };
}
