import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
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
  startStreamPoller,
  streamsClient,
  type BatchResult,
  type StreamPollerOptions,
} from '../../infra/local/stream-poller';
import { waitFor } from '../fixtures/wait';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// The poller's Lambda-mapping settings (infra/local/event-source.ts passes each mapping's own):
// bisect on a throw, retry from the first failed record, partial responses ignored when not
// reported, the maximum record age. Each test reads the stream from the start with its own
// checkpoint and looks only at its own items (pk `LAMBDA#{run}#{n}`).

let streamArn: string;
beforeAll(async () => {
  streamArn = await latestStreamArn(tableName());
});

async function writeItems(run: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const pk = `LAMBDA#${run}#${n}`;
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'x' } }));
    keys.push(pk);
  }
  return keys;
}

const pkOf = (record: StreamRecord) => String(unmarshall(record.dynamodb!.Keys as Record<string, AttributeValue>).pk);
const sequenceOf = (record: StreamRecord) => record.dynamodb!.SequenceNumber!;
const log = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() });

/** Every call's records of this run, and what the consumer answered. */
function consumer(run: string, react: (mine: StreamRecord[]) => BatchResult | undefined) {
  const calls: string[][] = [];
  const succeeded: string[] = [];
  const consume = async (records: StreamRecord[]) => {
    const mine = records.filter((record) => pkOf(record).startsWith(`LAMBDA#${run}#`));
    if (mine.length > 0) calls.push(mine.map(pkOf));
    const result = react(mine);
    const failed = new Set(result?.batchItemFailures.map((failure) => failure.itemIdentifier));
    succeeded.push(...mine.filter((record) => !failed.has(sequenceOf(record))).map(pkOf));
    return result;
  };
  return { consume, calls, succeeded };
}

function poller(consume: StreamPollerOptions['consume'], options: Partial<StreamPollerOptions>) {
  const checkpointFile = join(mkdtempSync(join(tmpdir(), 'poller-lambda-')), 'checkpoint.json');
  return startStreamPoller({
    client: streamsClient(),
    streamArn,
    checkpointFile,
    consume,
    batchSize: 100,
    idleDelayMs: 25,
    retryDelayMs: () => 5,
    ...options,
  });
}

describe("stream poller with a Lambda mapping's settings", () => {
  it('bisects a throwing batch until the poison record is alone, retries it alone, then skips it', async () => {
    const run = randomUUID();
    const keys = await writeItems(run, 8);
    const poison = keys[2];
    const c = consumer(run, (mine) => {
      if (mine.some((record) => pkOf(record) === poison)) throw new Error('poison');
    });
    const logged = log();
    const p = poller(c.consume, { bisectOnError: true, maxAttempts: 3, log: logged as never });
    await waitFor(
      'the skip and the rest',
      () => logged.error.mock.calls.length === 1 && c.succeeded.length === keys.length - 1,
    );
    await p.stop();

    // Every other record went through once, in stream order; splits are not retries.
    expect(c.succeeded).toEqual(keys.filter((key) => key !== poison));
    expect(c.calls.filter((call) => call.length === 1 && call[0] === poison)).toHaveLength(3);
    expect(logged.error.mock.calls[0][0]).toMatch(/skipped after failing every attempt/);
    expect(logged.error.mock.calls[0][1]).toMatchObject({ attempts: 3 });
  });

  it('after a partial batch response, retries from the first failed record on, as Lambda checkpoints', async () => {
    const run = randomUUID();
    const keys = await writeItems(run, 5);
    const flaky = keys[1];
    let failedOnce = false;
    const c = consumer(run, (mine) => {
      const record = mine.find((candidate) => pkOf(candidate) === flaky);
      if (!record || failedOnce) return;
      failedOnce = true;
      return { batchItemFailures: [{ itemIdentifier: sequenceOf(record) }] };
    });
    const p = poller(c.consume, { partialRetry: 'fromFirstFailure', maxAttempts: 3 });
    await waitFor('the retry', () => c.calls.length >= 2 && c.succeeded.includes(flaky));
    await p.stop();

    const handed = new Map(keys.map((key) => [key, c.calls.flat().filter((k) => k === key).length]));
    expect(handed.get(keys[0])).toBe(1);
    // The failed record and every later one, successful or not, are handed over again.
    for (const key of keys.slice(1)) expect(handed.get(key), key).toBe(2);
  });

  it('ignores a partial batch response when the mapping does not report batch item failures', async () => {
    const run = randomUUID();
    const keys = await writeItems(run, 3);
    const logged = log();
    const c = consumer(run, (mine) => ({
      batchItemFailures: mine.map((record) => ({ itemIdentifier: sequenceOf(record) })),
    }));
    const p = poller(c.consume, { reportBatchItemFailures: false, maxAttempts: 2, log: logged as never });
    await waitFor('the records', () => c.calls.flat().length >= keys.length);
    await p.stop();
    expect(c.calls.flat()).toEqual(keys);
    expect(logged.error).not.toHaveBeenCalled();
  });

  it('skips records older than the maximum record age without handing them over', async () => {
    const run = randomUUID();
    const keys = await writeItems(run, 2);
    const logged = log();
    const skipped = () =>
      logged.error.mock.calls.filter(([message]) => /older than the maximum record age/.test(message));
    const c = consumer(run, () => undefined);
    // Every record is older than 0 s by the time it is read.
    const p = poller(c.consume, { maxRecordAgeSeconds: 0, log: logged as never });
    await waitFor('the skips', () => skipped().length >= keys.length);
    await p.stop();
    expect(c.calls).toEqual([]);
    expect(Object.keys(skipped()[0][1]).sort()).toEqual(['attempts', 'event_id', 'sequence_number', 'shard_id']);
  });
});
