import { readMinutePartitions } from '../db/minute-partitions';
import {
  advanceWebhookRetrySweepCheckpoint,
  claimWebhookRetry,
  deleteWebhookRetryDue,
  deliveriesOf,
  readWebhookRetrySweepCheckpoint,
  webhookRetriesDueIn,
} from '../db/webhook-retries';
import type { WebhookRetryDueRecord } from '../domain/records';
import { addMinutesTo, sweepWindow } from '../domain/reminders';
import type { DeliveryJob, DeliveryQueue } from './jobs';

/**
 * The retry sweep (worker `sweepWebhookRetries`, every minute): webhook retries that wait longer
 * than SQS can delay a message wait as due items in their minute's partition
 * (lib/db/webhook-retries.ts); each minute's are sent to the `deliveries` queue for the rest of
 * their wait (under a minute), then deleted. One Query per minute partition, never a Scan
 * (docs/decisions/0021-webhook-retries-in-minute-partitions.md).
 */

export interface RetrySweepOptions {
  /** Minutes before the checkpoint read again, for clock skew between the writers and the sweeper. */
  lookbackMinutes?: number;
  /** With no checkpoint yet, how far back the first sweep starts (due items are at least 15 minutes out when written). */
  firstRunMinutes?: number;
  /** At most this many minute partitions per run; a sweep that fell behind catches up over several runs. */
  maxMinutes?: number;
}

export interface RetrySweepResult {
  /** The minutes swept, inclusive (null: nothing to sweep, e.g. `now` is before the checkpoint). */
  from: string | null;
  through: string | null;
  /** Jobs this run sent to the queue. */
  sent: number;
  /** Due items whose log entry is gone or no longer pending (already run): deleted unsent. */
  dropped: number;
  /** Due items another sweep holds: left to it (the checkpoint stays before their minute). */
  skipped: number;
}

/**
 * How long a sweep holds a due item it took: longer than the sweeper's timeout (50 s, lib/workers),
 * so a sweep still holding one after that has died, and the next sweep takes it over.
 */
export const RETRY_CLAIM_SECONDS = 60;

const PARALLEL_SENDS = 25;

const dueIn = (from: string, through: string): Promise<WebhookRetryDueRecord[]> =>
  readMinutePartitions(from, through, webhookRetriesDueIn);

/**
 * One sweep at `now` (the clock is the caller's): every retry due from the checkpoint to now's minute
 * is taken (a conditional write: of concurrent sweeps one takes each), sent with the rest of its
 * wait, and deleted once sent; then the checkpoint moves, to before the first minute holding an
 * item another sweep has. A failure leaves the items it took to the sweeps after their claim
 * lapses; a job sent twice that way is run once (processDeliveryJob finds its entry done).
 */
export async function sweepWebhookRetries(
  now: Date,
  queue: DeliveryQueue,
  options: RetrySweepOptions = {},
): Promise<RetrySweepResult> {
  const window = sweepWindow(await readWebhookRetrySweepCheckpoint(), now, {
    lookbackMinutes: options.lookbackMinutes ?? 2,
    firstRunMinutes: options.firstRunMinutes ?? 60,
    maxMinutes: options.maxMinutes ?? 120,
  });
  if (!window) return { from: null, through: null, sent: 0, dropped: 0, skipped: 0 };
  const at = now.toISOString();
  const until = new Date(now.getTime() + RETRY_CLAIM_SECONDS * 1000).toISOString();
  const dues = await dueIn(window.from, window.through);
  let sent = 0;
  let dropped = 0;
  let skipped = 0;
  let heldFrom: string | null = null;
  for (let i = 0; i < dues.length; i += 100) {
    const chunk = dues.slice(i, i + 100);
    const taken: WebhookRetryDueRecord[] = [];
    for (let j = 0; j < chunk.length; j += PARALLEL_SENDS) {
      const part = chunk.slice(j, j + PARALLEL_SENDS);
      const claims = await Promise.all(part.map((due) => claimWebhookRetry(due, at, until)));
      for (const [index, due] of part.entries()) {
        if (claims[index]) {
          taken.push(due);
          continue;
        }
        skipped += 1;
        if (heldFrom === null || due.due_minute < heldFrom) heldFrom = due.due_minute;
      }
    }
    // The jobs are the retries' `pending` log entries: one BatchGetItem for the chunk.
    const entries = await deliveriesOf(taken);
    for (let j = 0; j < taken.length; j += PARALLEL_SENDS) {
      await Promise.all(
        taken.slice(j, j + PARALLEL_SENDS).map(async (due) => {
          const entry = entries.get(due.delivery_id);
          if (entry?.status === 'pending') {
            const job: DeliveryJob = {
              medspa_id: entry.medspa_id,
              subscription_id: entry.subscription_id,
              delivery_id: entry.id,
              delivery_created_at: entry.created_at,
              attempt: entry.attempt,
              due_at: due.due_at,
              event: entry.event,
            };
            await queue.send(job, Math.max(0, (Date.parse(due.due_at) - now.getTime()) / 1000));
            sent += 1;
          } else {
            dropped += 1;
          }
          // Deleted only once sent: a sweep that fails before leaves it to the next.
          await deleteWebhookRetryDue(due);
        }),
      );
    }
  }
  const through: string = heldFrom === null ? window.through : addMinutesTo(heldFrom, -1);
  await advanceWebhookRetrySweepCheckpoint(through, at);
  return { ...window, sent, dropped, skipped };
}
