import { join } from 'node:path';
import { repeatAsFunction } from '../../lib/aws/local-schedule';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { clock } from '../../lib/clock';
import { config } from '../../lib/config';
import { tableName } from '../../lib/db/client';
import { processStreamRecords } from '../../lib/use-cases/stream-to-bus';
import type { Publish } from '../../lib/events/publish';
import { applyStreamRecords } from '../../lib/use-cases/report-aggregation';
import { sweepPlans } from '../../lib/use-cases/plan-renewals';
import { sweepReminders, type SweepResult } from '../../lib/use-cases/reminders';
import { processWaitlistRecords, sweepWaitlist } from '../../lib/use-cases/waitlist-freed';
import { streamMappingOf, workers } from '../../lib/workers';
import {
  latestStreamArn,
  startStreamPoller,
  streamsClient,
  type Consume,
  type StreamPoller,
  type StreamPollerOptions,
} from './stream-poller';

/**
 * The event source of the local server, in process: what the stream workers and the scheduled
 * reminder sweeper do on AWS. Each stream worker of lib/workers has its own poller of the table
 * stream (infra/local/stream-poller.ts) with its mapping's settings, as each has its own event
 * source mapping on AWS; the relay's batches go through the same pipeline as its Lambda
 * (lib/use-cases/stream-to-bus.ts) with `publish` in place of EventBridge. The reminder sweep runs every
 * `sweepEveryMs`.
 */

type Workers = typeof workers;
/** The workers table's rows triggered by the table stream. */
export type LocalStreamWorker = {
  [K in keyof Workers]: Workers[K]['trigger']['kind'] extends 'stream' ? K : never;
}[keyof Workers];

/** The stream workers the local server runs a poller for: every stream row of lib/workers (a test checks they are the template's stream mappings). */
export const LOCAL_STREAM_WORKERS = (Object.keys(workers) as (keyof Workers)[]).filter(
  (worker): worker is LocalStreamWorker => workers[worker].trigger.kind === 'stream',
);

/**
 * What each stream worker does with a batch in process: the use case its Lambda module calls.
 * Typed by the table, so a new stream row does not compile until it has one here.
 */
const localConsumers = (options: EventSourceOptions, now: () => Date): Record<LocalStreamWorker, Consume> => ({
  streamToBus: (records) => processStreamRecords(records, { publish: options.publish, now }),
  aggregateReports: (records) => applyStreamRecords(records),
  waitlistOffers: (records) => processWaitlistRecords(records, { now }),
});

/** Each mapping keeps its own position; the relay's file keeps its first name. */
const checkpointName = (table: string, worker: LocalStreamWorker) =>
  worker === 'streamToBus' ? `stream-checkpoint.${table}.json` : `stream-checkpoint.${table}.${worker}.json`;

/**
 * A stream worker's event source mapping as the poller takes it: from its row in lib/workers, as
 * the CDK stack (infra/stacks/workers-stack.ts) builds it, with the same defaults.
 * test/integration/local-wiring.test.ts checks every field against the synthesized template.
 */
export function localStreamMapping(worker: LocalStreamWorker) {
  const { batchSize, maxRetries, maxRecordAgeSeconds, filters } = streamMappingOf(workers[worker].trigger);
  return {
    batchSize,
    // The mapping's FilterCriteria: a record no filter matches never reaches the worker.
    filters,
    // MaximumRetryAttempts counts the retries; the poller counts the tries, the first included.
    maxAttempts: maxRetries + 1,
    reportBatchItemFailures: true,
    partialRetry: 'fromFirstFailure',
    bisectOnError: true,
    maxRecordAgeSeconds,
  } satisfies Partial<StreamPollerOptions>;
}
export interface EventSourceOptions {
  /** Where the contract events go (the webhook delivery side). */
  publish: Publish;
  /** Defaults to the shared clock. */
  now?: () => Date;
  sweepEveryMs: number;
  /** The plan sweep's interval (lib/use-cases/plan-renewals.ts); none without it (tests sweep plans themselves). */
  planSweepEveryMs?: number;
  /** The waitlist sweep's interval (lib/use-cases/waitlist-freed.ts); none without it (tests sweep it themselves). */
  waitlistSweepEveryMs?: number;
  /** Defaults to DATA_DIR: the stream checkpoint is kept there. */
  dataDir?: string;
  /** Poller tuning (tests), over each mapping's settings. */
  poller?: Pick<StreamPollerOptions, 'batchSize' | 'maxAttempts' | 'retryDelayMs' | 'idleDelayMs' | 'shardRefreshMs'>;
  /** Called after each sweep (tests, diagnostics). */
  onSweep?: (result: SweepResult) => void;
}

export interface EventSource {
  /** Stops the sweeper and the pollers after the work in flight. */
  stop(): Promise<void>;
}

export async function startEventSource(options: EventSourceOptions): Promise<EventSource> {
  const now = options.now ?? (() => clock().now());
  const table = tableName();
  const streamArn = await latestStreamArn(table);
  const dataDir = options.dataDir ?? config().DATA_DIR;
  const consumers = localConsumers(options, now);
  // Each mapping reads the stream with its function's role, keeps its own position and retries
  // on its own, as on AWS. The report counters are exactly once by their own markers, so a batch
  // handed over again is harmless.
  const pollers: StreamPoller[] = LOCAL_STREAM_WORKERS.map((worker) =>
    runAsFunction(worker, () =>
      startStreamPoller({
        ...localStreamMapping(worker),
        ...options.poller,
        client: streamsClient(),
        streamArn,
        checkpointFile: join(dataDir, checkpointName(table, worker)),
        consume: (records) => runAsFunction(worker, () => consumers[worker](records)),
      }),
    ),
  );

  // One sweep at a time: the next starts `sweepEveryMs` after the previous one ended.
  const sweeps = repeatAsFunction('sweepReminders', options.sweepEveryMs, () => sweepReminders(now()), options.onSweep);
  const planSweeps =
    options.planSweepEveryMs === undefined
      ? undefined
      : repeatAsFunction('sweepPlans', options.planSweepEveryMs, () => sweepPlans(now()));
  const waitlistSweeps =
    options.waitlistSweepEveryMs === undefined
      ? undefined
      : repeatAsFunction('sweepWaitlist', options.waitlistSweepEveryMs, () => sweepWaitlist(now()));

  return {
    async stop() {
      await sweeps.stop();
      await planSweeps?.stop();
      await waitlistSweeps?.stop();
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}
