import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import type { StreamRecord } from '../../lib/db/stream';
import {
  latestStreamArn,
  readCheckpoint,
  readyShards,
  startStreamPoller,
  streamsClient,
  type Consume,
  type StreamPollerOptions,
} from '../../infra/local/stream-poller';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// The poller against the real stream of this file's table on DynamoDB Local. Every test writes
// its own items (pk `POLL#{run}#{n}`) and looks only at records of its own run.

let streamArn: string;
beforeAll(async () => {
  streamArn = await latestStreamArn(tableName());
});

async function writeItems(run: string, from: number, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let n = from; n < from + count; n += 1) {
    const pk = `POLL#${run}#${String(n).padStart(3, '0')}`;
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'x', n } }));
    keys.push(pk);
  }
  return keys;
}

const pkOf = (record: StreamRecord) => String(unmarshall(record.dynamodb!.Keys as Record<string, AttributeValue>).pk);

/** Polls `condition` until it holds, failing after the deadline. */
async function waitFor(condition: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A consumer that records what it was handed (of this run), batch by batch. */
function recorder(
  run: string,
  react: (records: StreamRecord[], batchNumber: number) => ReturnType<Consume> | undefined = () => undefined,
) {
  const batches: string[][] = [];
  const consume: Consume = async (records) => {
    const mine = records.filter((record) => pkOf(record).startsWith(`POLL#${run}#`));
    if (mine.length > 0) batches.push(mine.map(pkOf));
    return (await react(records, batches.length)) ?? undefined;
  };
  return { consume, batches, handled: () => batches.flat() };
}

function poller(checkpointFile: string, consume: Consume, extra: Partial<StreamPollerOptions> = {}) {
  return startStreamPoller({
    client: streamsClient(),
    streamArn,
    checkpointFile,
    consume,
    batchSize: 5,
    idleDelayMs: 25,
    retryDelayMs: () => 5,
    ...extra,
  });
}

const freshCheckpoint = () => join(mkdtempSync(join(tmpdir(), 'poller-')), 'stream-checkpoint.json');
const countOf = (keys: string[]) =>
  keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map<string, number>());

describe('stream poller on DynamoDB Local', () => {
  it('hands over every record once, resumes after a restart with nothing lost or repeated', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    const first = await writeItems(run, 0, 12);
    const a = recorder(run);
    const p1 = poller(file, a.consume);
    await waitFor(() => a.handled().length >= 12, 'the first 12 records');
    await p1.stop();
    expect(a.handled()).toEqual(first);
    // Batches of at most 5, as asked.
    expect(Math.max(...a.batches.map((batch) => batch.length))).toBeLessThanOrEqual(5);

    const second = await writeItems(run, 12, 8);
    const b = recorder(run);
    const p2 = poller(file, b.consume);
    await waitFor(() => b.handled().length >= 8, 'the next 8 records');
    await p2.stop();
    expect(b.handled()).toEqual(second);
    const checkpoint = await readCheckpoint(file, streamArn);
    expect(Object.values(checkpoint.shards).some((position) => position.sequenceNumber)).toBe(true);
  });

  it('stopped mid-stream, the next start goes on from the last acknowledged batch: each record exactly once', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    const keys = await writeItems(run, 0, 23);
    let p1: ReturnType<typeof poller>;
    let stopping: Promise<void> | undefined;
    const a = recorder(run, (_records, batchNumber) => {
      // Asked to stop while the second batch is being handled: that batch still completes.
      if (batchNumber === 2) stopping ??= p1.stop();
    });
    p1 = poller(file, a.consume);
    await waitFor(() => stopping !== undefined, 'the stop request');
    await stopping;
    expect(a.handled().length).toBeLessThan(keys.length);

    const b = recorder(run);
    const p2 = poller(file, b.consume);
    await waitFor(() => a.handled().length + b.handled().length >= keys.length, 'the rest of the records');
    await p2.stop();
    const all = [...a.handled(), ...b.handled()];
    expect(all.sort()).toEqual(keys);
    expect([...countOf(all).values()].every((count) => count === 1)).toBe(true);
  });

  it('abandoned like a crash, only the batch in flight is handed over again', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    const keys = await writeItems(run, 0, 17);
    let p1: ReturnType<typeof poller>;
    let stopping: Promise<void> | undefined;
    let inFlight: string[] = [];
    const a = recorder(run, (records, batchNumber) => {
      if (batchNumber === 2) {
        inFlight = records.map(pkOf).filter((key) => key.startsWith(`POLL#${run}#`));
        stopping ??= p1.stop({ abandonInFlight: true });
      }
    });
    p1 = poller(file, a.consume);
    await waitFor(() => stopping !== undefined, 'the crash');
    await stopping;

    const b = recorder(run);
    const p2 = poller(file, b.consume);
    await waitFor(() => new Set([...a.handled(), ...b.handled()]).size >= keys.length, 'every record');
    await p2.stop();
    const counts = countOf([...a.handled(), ...b.handled()]);
    expect([...counts.keys()].sort()).toEqual(keys);
    const repeated = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
    expect(repeated).toEqual(inFlight);
    expect(repeated.length).toBeGreaterThan(0);
  });

  it('writes the checkpoint only after the consumer has the batch', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    await writeItems(run, 0, 6);
    const seenAtHandover: (string | undefined)[] = [];
    const handed: string[] = [];
    const a = recorder(run, async (records) => {
      let saved: string | undefined;
      try {
        saved = Object.values(
          JSON.parse(readFileSync(file, 'utf8')).shards as Record<string, { sequenceNumber?: string }>,
        )[0]?.sequenceNumber;
      } catch {
        saved = undefined;
      }
      seenAtHandover.push(saved);
      // The checkpoint never covers a record being handed over.
      for (const record of records) expect(saved === undefined || saved < record.dynamodb!.SequenceNumber!).toBe(true);
      handed.push(...records.map((record) => record.dynamodb!.SequenceNumber!));
    });
    const p = poller(file, a.consume);
    await waitFor(() => a.handled().length >= 6, 'the records');
    await p.stop();
    expect(seenAtHandover.length).toBeGreaterThan(1);
    const final = await readCheckpoint(file, streamArn);
    expect(Object.values(final.shards)[0].sequenceNumber).toBe(handed[handed.length - 1]);
  });

  it('retries a failing record a bounded number of times, logs it by ids only, skips it and goes on', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    const keys = await writeItems(run, 0, 8);
    const poison = keys[2];
    const flaky = keys[5];
    const attempts = new Map<string, number>();
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const a = recorder(run, (records) => {
      const failures: { itemIdentifier: string }[] = [];
      for (const record of records) {
        const key = pkOf(record);
        attempts.set(key, (attempts.get(key) ?? 0) + 1);
        // The poison record always fails; the flaky one fails once.
        if (key === poison || (key === flaky && attempts.get(key) === 1))
          failures.push({ itemIdentifier: record.dynamodb!.SequenceNumber! });
      }
      return Promise.resolve({ batchItemFailures: failures });
    });
    const p = poller(file, a.consume, { maxAttempts: 3, log: log as never });
    await waitFor(
      () => log.error.mock.calls.length > 0 && attempts.get(keys[7]) !== undefined && attempts.get(flaky) === 2,
      'the skip',
    );
    await p.stop();

    expect(attempts.get(poison)).toBe(3);
    expect(attempts.get(flaky)).toBe(2);
    // Records that succeeded were not handed over again while the failed ones were retried.
    for (const key of keys.filter((k) => k !== poison && k !== flaky)) expect(attempts.get(key)).toBe(1);
    expect(log.error).toHaveBeenCalledTimes(1);
    const [message, fields] = log.error.mock.calls[0];
    expect(message).toMatch(/skipped/);
    expect(Object.keys(fields).sort()).toEqual(['attempts', 'event_id', 'sequence_number', 'shard_id']);
    expect(JSON.stringify(fields)).not.toContain('POLL#');

    // Skipped means acknowledged: a restart does not bring it back.
    const b = recorder(run);
    const later = await writeItems(run, 8, 1);
    const p2 = poller(file, b.consume);
    await waitFor(() => b.handled().length >= 1, 'the next record');
    await p2.stop();
    expect(b.handled()).toEqual(later);
  });

  it('a consumer that throws has the whole batch retried', async () => {
    const run = randomUUID();
    const file = freshCheckpoint();
    const keys = await writeItems(run, 0, 3);
    let mineCalls = 0;
    const a = recorder(run, (records) => {
      if (!records.some((record) => pkOf(record).startsWith(`POLL#${run}#`))) return;
      mineCalls += 1;
      if (mineCalls === 1) throw new Error('bus unavailable');
    });
    const p = poller(file, a.consume, { batchSize: 10 });
    await waitFor(() => a.batches.length >= 2, 'the retry');
    await p.stop();
    expect(a.batches[0]).toEqual(keys);
    expect(a.batches[1]).toEqual(keys);
  });
});

describe('stream poller resilience', () => {
  it('rides out errors from the stream API: retries from the checkpoint, nothing lost or repeated', async () => {
    const run = randomUUID();
    const keys = await writeItems(run, 0, 9);
    const real = streamsClient();
    let injected = 0;
    // The first DescribeStream and two later GetRecords calls fail as an unreachable endpoint would.
    let calls = 0;
    const flaky = {
      send(command: { constructor: { name: string } }) {
        calls += 1;
        const name = command.constructor.name;
        if (
          (name === 'DescribeStreamCommand' && injected === 0) ||
          (name === 'GetRecordsCommand' && (calls === 6 || calls === 9))
        ) {
          injected += 1;
          return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { name: 'ECONNREFUSED' }));
        }
        return real.send(command as never);
      },
    };
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const a = recorder(run);
    const p = poller(freshCheckpoint(), a.consume, { client: flaky as never, log: log as never, idleDelayMs: 5 });
    await waitFor(() => a.handled().length >= keys.length, 'every record');
    await p.stop();
    expect(injected).toBe(3);
    expect(log.warn).toHaveBeenCalledWith(
      'stream poll failed; retrying',
      expect.objectContaining({ error: 'ECONNREFUSED' }),
    );
    expect(a.handled()).toEqual(keys);
  });
});

describe('readyShards', () => {
  const checkpoint = (shards: Record<string, { finished?: boolean; sequenceNumber?: string }>) => ({
    streamArn: 'arn',
    shards,
  });
  const lineage = [
    { ShardId: 'parent' },
    { ShardId: 'left', ParentShardId: 'parent' },
    { ShardId: 'right', ParentShardId: 'parent' },
    { ShardId: 'grandchild', ParentShardId: 'left' },
    { ShardId: 'orphan', ParentShardId: 'trimmed-away' },
  ];

  it('children wait until their parent is read to its end', () => {
    expect(readyShards(lineage, checkpoint({}))).toEqual(['parent', 'orphan']);
    expect(readyShards(lineage, checkpoint({ parent: { finished: true } }))).toEqual(['left', 'right', 'orphan']);
    expect(
      readyShards(
        lineage,
        checkpoint({ parent: { finished: true }, left: { finished: true }, orphan: { sequenceNumber: '5' } }),
      ),
    ).toEqual(['right', 'grandchild', 'orphan']);
  });
});
