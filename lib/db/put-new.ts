import { tableName } from './client';
import type { Codec } from './codecs';
import { DataFailure } from './failure';
import type { RequestWrites } from './request-writes';
import { writeOne, type TransactItem } from './transact';

/** A transaction's Put of a new item: its key must not exist yet. */
export const newItemAction = (Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/**
 * Writes a new record through its kind's codec (its id must be new, else a DataFailure
 * `collision`), in one round trip: with the request's writes (a keyed POST's Idempotency-Key
 * marker, the audit entry) when it has any left to commit.
 */
export async function putNew<T>(codec: Codec<T>, record: T, writes?: RequestWrites): Promise<T> {
  const outcome = await writeOne(
    {
      name: 'new',
      action: newItemAction(codec.toItem(record)),
    },
    writes,
  );
  if (!outcome.ok) throw new DataFailure('collision', `a new ${codec.entity} item's key is taken`);
  return record;
}
