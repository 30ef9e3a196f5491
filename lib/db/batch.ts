import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { exponentialJitter, retry } from '../retry';
import { ddb, tableName } from './client';
import { DataFailure } from './failure';
import { fromItem } from './item';
import { entityKey, type EntityType, type Key } from './keys';

const BATCH_GET_LIMIT = 100;

/** An item's identity in a batchGetKeys result. */
export const itemId = (key: Key) => `${key.pk}|${key.sk}`;

/**
 * How often keys DynamoDB left unprocessed (throttling, or the 16 MB answer limit) are asked for
 * again, with exponential backoff and full jitter as AWS advises: under 5 s of waiting in all, within
 * a route's time limit. Still unprocessed after that, the read fails rather than answer without them.
 */
export const UNPROCESSED_RETRIES = 8;

/** Reads one chunk of at most 100 keys into `found`, asking again for what DynamoDB left unprocessed. */
function readChunk(chunk: Record<string, unknown>[], found: Map<string, Record<string, unknown>>): Promise<void> {
  let pending = chunk;
  return retry<void>(
    async () => {
      const result = await ddb().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[tableName()] ?? []) found.set(itemId(item as Key), item);
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[]) ?? [];
      return pending.length > 0 ? { retry: 'later' } : { done: undefined };
    },
    {
      attempts: UNPROCESSED_RETRIES + 1,
      delayMs: exponentialJitter(25, 1000),
      exhausted: () => {
        throw new DataFailure('unprocessed', `BatchGetItem left ${pending.length} key(s) unprocessed after ${UNPROCESSED_RETRIES} retries`);
      },
    },
  );
}

/**
 * Reads any keys of the table, strongly consistent, as one BatchGetItem per 100 keys (in
 * parallel), asking again for UnprocessedKeys (with backoff) until none is left: a key is never
 * reported absent because DynamoDB did not get to it. Returns items by `pk|sk`.
 */
export async function batchGetKeys(keys: Key[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((key) => [itemId(key), { pk: key.pk, sk: key.sk }])).values()];
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) chunks.push(unique.slice(i, i + BATCH_GET_LIMIT));
  await Promise.all(chunks.map((chunk) => readChunk(chunk, found)));
  return found;
}

/** Reads several entities of one practice in one round trip. */
export const batchGetEntities = (medspaId: string, refs: { type: EntityType; id: string }[]) =>
  batchGetKeys(refs.map((ref) => entityKey(medspaId, ref.type, ref.id)));

/** Looks an entity up in a batchGetEntities result. */
export const pick = <T>(found: Map<string, Record<string, unknown>>, medspaId: string, type: EntityType, id: string) =>
  fromItem<T>(found.get(itemId(entityKey(medspaId, type, id))));
