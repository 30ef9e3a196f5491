import { join } from 'node:path';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { clock } from '../../lib/clock';
import { config } from '../../lib/config';
import { tableName } from '../../lib/db/client';
import { processStreamRecords } from '../../lib/events/pipeline';
import type { Publish } from '../../lib/events/publish';
import { logger } from '../../lib/log';
import { applyStreamRecords } from '../../lib/use-cases/report-aggregation';
import { sweepReminders, type SweepResult } from '../../lib/use-cases/reminders';
import { latestStreamArn, startStreamPoller, streamsClient, type StreamPollerOptions } from './stream-poller';

/**
 * The event source of the local server, in process: what the stream worker Lambda and the
 * scheduled reminder sweeper do on AWS. The table stream is polled (infra/local/stream-poller.ts)
 * and each batch goes through the same pipeline as the Lambda (lib/events/pipeline.ts) with
 * `publish` in place of EventBridge; the reminder sweep runs every `sweepEveryMs`.
 */
export interface EventSourceOptions {
  /** Where the contract events go (the webhook delivery side). */
  publish: Publish;
  /** Defaults to the shared clock. */
  now?: () => Date;
  sweepEveryMs: number;
  /** Defaults to DATA_DIR: the stream checkpoint is kept there. */
  dataDir?: string;
  /** Poller tuning (tests). */
  poller?: Pick<StreamPollerOptions, 'batchSize' | 'maxAttempts' | 'retryDelayMs' | 'idleDelayMs' | 'shardRefreshMs'>;
  /** Called after each sweep (tests, diagnostics). */
  onSweep?: (result: SweepResult) => void;
}

export interface EventSource {
  /** Stops the sweeper and the poller after the work in flight. */
  stop(): Promise<void>;
}

export async function startEventSource(options: EventSourceOptions): Promise<EventSource> {
  const now = options.now ?? (() => clock().now());
  const table = tableName();
  const streamArn = await latestStreamArn(table);
  // Each stream consumer's mapping reads the stream with its function's role: the poller reads as
  // streamToBus (aggregateReports' role is granted the same stream actions, test/infra).
  const poller = runAsFunction('streamToBus', () => startStreamPoller({
    ...options.poller,
    client: streamsClient(),
    streamArn,
    checkpointFile: join(options.dataDir ?? config().DATA_DIR, `stream-checkpoint.${table}.json`),
    // The two stream consumers of lib/workers, in one pass: report counters (exactly once by
    // their own markers, so a retried batch is harmless), then contract events.
    consume: async (records) => {
      await runAsFunction('aggregateReports', () => applyStreamRecords(records as never, { now }));
      return runAsFunction('streamToBus', () => processStreamRecords(records, { publish: options.publish, now }));
    },
  }));

  // One sweep at a time: the next starts `sweepEveryMs` after the previous one ended.
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      sweeping = runAsFunction('sweepReminders', () => sweepReminders(now()))
        .then((result) => options.onSweep?.(result))
        .catch((error) => logger.error('reminder sweep failed', { error: (error as Error).name }))
        .finally(schedule);
    }, options.sweepEveryMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await sweeping;
      await poller.stop();
    },
  };
}
