import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { passes, type StreamFilterPattern } from '../../lib/workers/stream-filter';
import { instrumentClient } from '../../lib/aws/local-runtime';
import { dirname } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { config } from '../../lib/config';
import type { StreamRecord } from '../../lib/db/stream';
import { logger } from '../../lib/log';

/**
 * The local stand-in for Lambda's DynamoDB stream event source: reads every shard of the table's
 * stream (DescribeStream, paged; children only after their parent is read to its end),
 * hands each GetRecords batch to `consume`, and only then records the shard's position in a
 * checkpoint file. A restart resumes after the last acknowledged record (AFTER_SEQUENCE_NUMBER),
 * or from TRIM_HORIZON for a shard never read: nothing is lost and nothing acknowledged is
 * handed over again. Failures are handled as Lambda's stream event source mapping does, with its
 * settings as options (infra/local/event-source.ts passes each mapping's own): records that
 * `consume` reports failed (partial batch response) or all of them when it throws are retried a
 * bounded number of times, a throwing batch split in halves first when asked (bisect); a record
 * still failing then, or older than the maximum record age, is logged by ids and skipped, so one
 * poison record never blocks its shard.
 */

/** Lambda's partial batch response: failed records by sequence number. */
export interface BatchResult {
  batchItemFailures: { itemIdentifier: string }[];
}

export type Consume = (records: StreamRecord[]) => Promise<BatchResult | undefined>;

type Log = Pick<typeof logger, 'info' | 'warn' | 'error'>;

export interface StreamPollerOptions {
  client: DynamoDBStreamsClient;
  streamArn: string;
  /** JSON file keeping each shard's last acknowledged sequence number (under DATA_DIR). */
  checkpointFile: string;
  consume: Consume;
  /** GetRecords `Limit` (DynamoDB allows up to 1000). */
  batchSize?: number;
  /** Tries per record, the first included, before it is skipped (a mapping's MaximumRetryAttempts + 1). */
  maxAttempts?: number;
  /** Honour `batchItemFailures` (ReportBatchItemFailures); when false a returned list is ignored, as Lambda ignores it. Default true. */
  reportBatchItemFailures?: boolean;
  /**
   * After a partial batch response, retry the failed records alone (`failed`, the default) or,
   * as Lambda does, every record from the first failed one on (`fromFirstFailure`: Lambda
   * checkpoints at the lowest failed sequence number, so later records are handed over again).
   */
  partialRetry?: 'failed' | 'fromFirstFailure';
  /** Split a throwing batch in two and hand each half over on its own (BisectBatchOnFunctionError); a split is not a retry. */
  bisectOnError?: boolean;
  /** Skip records older than this (MaximumRecordAgeInSeconds), by ApproximateCreationDateTime. */
  maxRecordAgeSeconds?: number;
  /** The mapping's FilterCriteria: a record no pattern matches is passed over, never handed to `consume`. */
  filters?: readonly StreamFilterPattern[];
  /** Wait before retry `attempt` (2, 3, ...) of failed records. */
  retryDelayMs?: (attempt: number) => number;
  /** Wait between rounds that found nothing new. */
  idleDelayMs?: number;
  /** How often the shard list is read again (also at once when a shard ends). */
  shardRefreshMs?: number;
  log?: Log;
}

export interface StreamPoller {
  /**
   * Stops after the batch in flight: it is handed over and checkpointed first, so a restart
   * repeats nothing. `abandonInFlight` stops as a crash would: the batch in flight (handed over
   * or not) is not checkpointed and will be handed over again after a restart.
   */
  stop(options?: { abandonInFlight?: boolean }): Promise<void>;
  /** Settles when the poller has stopped (rejects on an error it cannot get past). */
  readonly done: Promise<void>;
}

// ---- Checkpoint ------------------------------------------------------------------------------

export interface ShardPosition {
  /** The last record acknowledged. */
  sequenceNumber?: string;
  /** Read to its end (a closed shard): its children may start. */
  finished?: boolean;
}

export interface Checkpoint {
  streamArn: string;
  shards: Record<string, ShardPosition>;
}

/** The checkpoint of this stream, or an empty one (a new table has a new stream: old positions do not apply). */
export async function readCheckpoint(file: string, streamArn: string): Promise<Checkpoint> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Checkpoint;
    if (saved.streamArn === streamArn && saved.shards && typeof saved.shards === 'object') return saved;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { streamArn, shards: {} };
}

/** Written whole to a temporary file, then renamed over the old one: a crash leaves one or the other. */
async function writeCheckpoint(file: string, checkpoint: Checkpoint): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(checkpoint, null, 2));
  await rename(temporary, file);
}

// ---- Shard lineage ---------------------------------------------------------------------------

/**
 * Shards to read now, parents first: those not finished whose parent is finished or no longer
 * listed (trimmed away after 24 h). A child waits until its parent has been read to the end, so a
 * key's changes are handed over in order across a split.
 */
export function readyShards(shards: Pick<Shard, 'ShardId' | 'ParentShardId'>[], checkpoint: Checkpoint): string[] {
  const listed = new Set(shards.map((shard) => shard.ShardId));
  const finished = (id: string | undefined) => Boolean(id && checkpoint.shards[id]?.finished);
  return shards
    .filter((shard) => shard.ShardId && !finished(shard.ShardId))
    .filter((shard) => !shard.ParentShardId || !listed.has(shard.ParentShardId) || finished(shard.ParentShardId))
    .map((shard) => shard.ShardId!);
}

// ---- The poller ------------------------------------------------------------------------------

const sequenceOf = (record: _Record) => record.dynamodb?.SequenceNumber ?? '';

/** Where a shard never read starts (the mapping's StartingPosition): the oldest record kept. */
export const STARTING_POSITION = 'TRIM_HORIZON' as const;

export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const { client, streamArn, checkpointFile, consume } = options;
  const batchSize = options.batchSize ?? 100;
  const maxAttempts = options.maxAttempts ?? 5;
  const {
    reportBatchItemFailures = true,
    partialRetry = 'failed',
    bisectOnError = false,
    maxRecordAgeSeconds,
  } = options;
  const retryDelayMs = options.retryDelayMs ?? ((attempt) => Math.min(100 * 2 ** (attempt - 2), 5_000));
  const idleDelayMs = options.idleDelayMs ?? 500;
  const shardRefreshMs = options.shardRefreshMs ?? 10_000;
  const log = options.log ?? logger;

  let stopping: 'no' | 'graceful' | 'abandon' = 'no';
  let wake: () => void = () => {};
  /** Waits, but wakes at once on stop. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function listShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await client.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return shards;
  }

  async function openIterator(shardId: string, position: ShardPosition | undefined): Promise<string | undefined> {
    const from = position?.sequenceNumber
      ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: position.sequenceNumber }
      : { ShardIteratorType: STARTING_POSITION };
    const { ShardIterator } = await client.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...from }),
    );
    return ShardIterator;
  }

  const skip = (shardId: string, record: _Record, reason: string, attempts: number) =>
    log.error(`stream record skipped ${reason}`, {
      shard_id: shardId,
      sequence_number: sequenceOf(record),
      event_id: record.eventID,
      attempts,
    });

  const expired = (record: _Record) => {
    const createdAt = record.dynamodb?.ApproximateCreationDateTime;
    return (
      maxRecordAgeSeconds !== undefined &&
      createdAt !== undefined &&
      Date.now() - new Date(createdAt).getTime() > maxRecordAgeSeconds * 1000
    );
  };

  /** Hands the batch over until every record is done or skipped; false when stopping left it unfinished. */
  async function deliver(shardId: string, records: _Record[]): Promise<boolean> {
    // What is left to hand over, in stream order, each part with the tries its records have had.
    const parts = [{ records, tries: 0 }];
    while (parts.length > 0) {
      const part = parts.shift()!;
      const pending: _Record[] = [];
      for (const record of part.records) {
        if (expired(record)) skip(shardId, record, 'older than the maximum record age', part.tries);
        else if (!options.filters || passes(options.filters, record)) pending.push(record);
      }
      if (pending.length === 0) continue;
      const attempt = part.tries + 1;
      let failed: _Record[];
      let retry: _Record[];
      try {
        const result = await consume(pending as StreamRecord[]);
        const failedIds = new Set(
          reportBatchItemFailures ? (result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier) : [],
        );
        failed = pending.filter((record) => failedIds.has(sequenceOf(record)));
        retry = partialRetry === 'failed' || failed.length === 0 ? failed : pending.slice(pending.indexOf(failed[0]));
      } catch (error) {
        log.warn('stream batch failed', {
          shard_id: shardId,
          records: pending.length,
          attempt,
          error: (error as Error).name,
        });
        failed = retry = pending;
        if (bisectOnError && pending.length > 1 && stopping === 'no') {
          const half = Math.ceil(pending.length / 2);
          parts.unshift(
            { records: pending.slice(0, half), tries: part.tries },
            { records: pending.slice(half), tries: part.tries },
          );
          continue;
        }
      }
      if (stopping === 'abandon') return false;
      if (failed.length === 0) continue;
      if (attempt >= maxAttempts) {
        for (const record of failed) skip(shardId, record, 'after failing every attempt', attempt);
        continue;
      }
      // Stopping between attempts: the batch is not acknowledged and comes back after a restart.
      if (stopping !== 'no') return false;
      await pause(retryDelayMs(attempt + 1));
      if (stopping !== 'no') return false;
      parts.unshift({ records: retry, tries: attempt });
    }
    return true;
  }

  async function run(): Promise<void> {
    const checkpoint = await readCheckpoint(checkpointFile, streamArn);
    const iterators = new Map<string, string>();
    let shards: Shard[] = [];
    let refreshAt = 0;
    let failures = 0;
    const save = () => writeCheckpoint(checkpointFile, checkpoint);

    while (stopping === 'no') {
      try {
        await round();
        failures = 0;
      } catch (error) {
        // DynamoDB unreachable or answering errors: start again from the checkpoint, backing off.
        failures += 1;
        log.warn('stream poll failed; retrying', { error: (error as Error).name, failures });
        iterators.clear();
        refreshAt = 0;
        if (stopping === 'no') await pause(Math.min(idleDelayMs * 2 ** failures, 30_000));
      }
    }

    async function round(): Promise<void> {
      if (Date.now() >= refreshAt) {
        shards = await listShards();
        refreshAt = Date.now() + shardRefreshMs;
      }
      let progressed = false;
      for (const shardId of readyShards(shards, checkpoint)) {
        if (stopping !== 'no') break;
        let iterator = iterators.get(shardId);
        try {
          iterator ??= await openIterator(shardId, checkpoint.shards[shardId]);
        } catch (error) {
          if (!(error instanceof ResourceNotFoundException)) throw error;
          iterator = undefined;
        }
        if (!iterator) {
          // The shard is gone (trimmed): nothing more to read there.
          checkpoint.shards[shardId] = { ...checkpoint.shards[shardId], finished: true };
          await save();
          refreshAt = 0;
          continue;
        }
        let page: GetRecordsCommandOutput;
        try {
          page = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: batchSize }));
        } catch (error) {
          iterators.delete(shardId);
          if (error instanceof ExpiredIteratorException) continue;
          if (error instanceof TrimmedDataAccessException) {
            // The checkpoint points at records older than the stream keeps (24 h): start from the oldest kept.
            log.warn('stream position trimmed; resuming from the oldest record kept', { shard_id: shardId });
            checkpoint.shards[shardId] = {};
            continue;
          }
          throw error;
        }
        const records = page.Records ?? [];
        if (records.length > 0) {
          progressed = true;
          if (!(await deliver(shardId, records))) break;
          checkpoint.shards[shardId] = { sequenceNumber: sequenceOf(records[records.length - 1]) };
          await save();
        }
        if (page.NextShardIterator) {
          iterators.set(shardId, page.NextShardIterator);
        } else {
          // A closed shard read to its end: its children may start.
          iterators.delete(shardId);
          checkpoint.shards[shardId] = { ...checkpoint.shards[shardId], finished: true };
          await save();
          refreshAt = 0;
          progressed = true;
        }
      }
      if (!progressed && stopping === 'no') await pause(idleDelayMs);
    }
  }

  const done = run();
  // A caller may only look at `done` through stop(); never leave it unhandled.
  done.catch((error) => log.error('stream poller stopped on an error', { error: (error as Error).name }));

  return {
    done,
    async stop(stopOptions = {}) {
      stopping = stopOptions.abandonInFlight ? 'abandon' : 'graceful';
      wake();
      await done;
    },
  };
}

// ---- Wiring for the local server ------------------------------------------------------------

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A Streams client for this process's DynamoDB (Local, by DYNAMODB_ENDPOINT). */
export function streamsClient(): DynamoDBStreamsClient {
  const { DYNAMODB_ENDPOINT, AWS_REGION } = config();
  return instrumentClient(
    new DynamoDBStreamsClient({
      region: AWS_REGION,
      ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT, credentials: localCredentials } : {}),
    }),
    'dynamodb-streams',
  );
}

/** The table's current stream. */
export async function latestStreamArn(tableName: string): Promise<string> {
  const { DYNAMODB_ENDPOINT, AWS_REGION } = config();
  const dynamo = new DynamoDBClient({
    region: AWS_REGION,
    ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT, credentials: localCredentials } : {}),
  });
  try {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.LatestStreamArn) throw new Error(`table ${tableName} has no stream`);
    return Table.LatestStreamArn;
  } finally {
    dynamo.destroy();
  }
}
