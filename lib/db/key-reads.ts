import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { currentInvocation } from '../aws/local-runtime';
import { exponentialJitter, retry } from '../retry';
import { ddb, tableName } from './client';
import { DataFailure } from './failure';
import type { Key } from './keys';

const BATCH_GET_LIMIT = 100;

/** An item's identity: in a readItems result, and for merging reads of one key. */
export const itemId = (key: Key) => `${key.pk}|${key.sk}`;

/**
 * How often keys DynamoDB left unprocessed (throttling, or the 16 MB answer limit) are asked for
 * again, with exponential backoff and full jitter as AWS advises: under 5 s of waiting in all, within
 * a route's time limit. Still unprocessed after that, the read fails rather than answer without them.
 */
const UNPROCESSED_RETRIES = 8;

/** One BatchGetItem of at most 100 distinct keys, asking again for what DynamoDB left unprocessed. */
function readChunk(keys: Key[], consistent: boolean): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Record<string, unknown>[] = keys.map((key) => ({ pk: key.pk, sk: key.sk }));
  return retry<Map<string, Record<string, unknown>>>(
    async () => {
      const result = await ddb().send(
        new BatchGetCommand({
          RequestItems: { [tableName()]: { Keys: pending, ...(consistent ? { ConsistentRead: true } : {}) } },
        }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) found.set(`${item.pk}|${item.sk}`, item);
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[]) ?? [];
      return pending.length > 0 ? { retry: 'later' } : { done: found };
    },
    {
      attempts: UNPROCESSED_RETRIES + 1,
      delayMs: exponentialJitter(25, 1000),
      exhausted: () => {
        throw new DataFailure(
          'unprocessed',
          `BatchGetItem left ${pending.length} key(s) unprocessed after ${UNPROCESSED_RETRIES} retries`,
        );
      },
    },
  );
}

/** The keys of one or more readers: a lone key is a GetItem, more a BatchGetItem per 100 (in parallel). */
async function readUnique(keys: Key[], consistent: boolean): Promise<Map<string, Record<string, unknown>>> {
  if (keys.length === 1) {
    const { Item } = await ddb().send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: keys[0]!.pk, sk: keys[0]!.sk },
        ...(consistent ? { ConsistentRead: true } : {}),
      }),
    );
    return new Map(Item ? [[itemId(keys[0]!), Item]] : []);
  }
  const chunks: Key[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) chunks.push(keys.slice(i, i + BATCH_GET_LIMIT));
  const parts = await Promise.all(chunks.map((chunk) => readChunk(chunk, consistent)));
  return parts.length === 1 ? parts[0]! : new Map(parts.flatMap((part) => [...part]));
}

interface Reader {
  keys: Key[];
  consistent: boolean;
  resolve: (found: Map<string, Record<string, unknown>>) => void;
  reject: (error: unknown) => void;
}

/**
 * Readers asking in this tick, by invocation (lib/aws/local-runtime.ts): on AWS a container runs one
 * at a time, so all share; locally, requests in one process share nothing, as they would on AWS.
 */
const waiting = new Map<object | undefined, Reader[]>();

function readWaiting(invocation: object | undefined): void {
  const readers = waiting.get(invocation)!;
  waiting.delete(invocation);
  const unique = new Map<string, Key>();
  for (const reader of readers) for (const key of reader.keys) unique.set(itemId(key), key);
  // A strong read serves an eventual reader too: readers of one tick share one round trip, strong if any asks so.
  readUnique(
    [...unique.values()],
    readers.some((reader) => reader.consistent),
  ).then(
    (found) => {
      if (readers.length === 1) return readers[0]!.resolve(found);
      for (const reader of readers) {
        const own = new Map<string, Record<string, unknown>>();
        for (const key of reader.keys) {
          const id = itemId(key);
          const item = found.get(id);
          if (item) own.set(id, item);
        }
        reader.resolve(own);
      }
    },
    (error: unknown) => {
      for (const reader of readers) reader.reject(error);
    },
  );
}

/** How a read by key reads: strongly consistent (the default), or eventually (half the read units). */
export interface ReadOptions {
  /**
   * false: eventually consistent, for a read whose answer may trail a write by about a second
   * because no guarantee rests on it (a search's setup; a write that depends on what it read
   * reads strongly). Read strongly anyway when it shares its round trip with a strong reader.
   */
  consistent?: boolean;
}

/**
 * Any keys of the table, strongly consistent unless asked otherwise, as stored (keys included), by
 * `pk|sk`; a key is never reported absent because DynamoDB left it unprocessed. Every read of items by key goes through
 * here, and reads asked for in the same tick share their round trips: a cold GET's credential
 * check and its own read go out as one BatchGetItem, not two calls on two connections
 * (docs/decisions/0015). Not a cache: each tick reads afresh. Per reader, not per key (DataLoader's
 * way): a search's thousand keys cost no promise each.
 */
export function readItems(keys: Key[], options: ReadOptions = {}): Promise<Map<string, Record<string, unknown>>> {
  if (keys.length === 0) return Promise.resolve(new Map());
  const invocation = currentInvocation();
  return new Promise((resolve, reject) => {
    let readers = waiting.get(invocation);
    if (!readers) {
      waiting.set(invocation, (readers = []));
      // After the promise jobs queued now (a middy chain's awaits): a nextTick queued from a job runs once they are all done.
      queueMicrotask(() => process.nextTick(readWaiting, invocation));
    }
    readers.push({ keys, consistent: options.consistent !== false, resolve, reject });
  });
}

/** One item, strongly consistent, as stored (keys included), or undefined. */
export const readItem = async (key: Key): Promise<Record<string, unknown> | undefined> =>
  (await readItems([key])).get(itemId(key));
