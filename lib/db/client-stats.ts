import { entityKey } from './keys';
import { tableName } from './client';
import type { TransactItem } from './transact-types';

/**
 * The client's visit and spend statistics change in the same transaction as the fact that
 * changes them (an appointment completed or missed, a payment recorded), so they never drift.
 * The client item must exist; a deleted client's item does (anonymised), and its statistics keep
 * moving so reports stay right. That condition is the only one: clients are never removed from
 * the table, so this action cannot fail a transaction it joins.
 *
 * `last_visit_at` is set to the visit being recorded (last writer wins). A guard keeping the later
 * of the two would have to be a condition, and a failed condition would fail the completion
 * itself; completions follow their visits, so only completing an older visit after a newer one
 * moves it back.
 */
export function clientStatsAction(
  medspaId: string,
  clientId: string,
  change: { visitAt?: string; noShow?: boolean; spentCents?: number },
): TransactItem {
  const adds: string[] = [];
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (change.visitAt) {
    adds.push('visit_count :one');
    sets.push('last_visit_at = :visitAt');
    values[':one'] = 1;
    values[':visitAt'] = change.visitAt;
  }
  if (change.noShow) {
    adds.push('no_show_count :one');
    values[':one'] = 1;
  }
  if (change.spentCents) {
    adds.push('total_spent_cents :spent');
    values[':spent'] = change.spentCents;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'CLIENT', clientId),
      UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].filter(Boolean).join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    },
  };
}

/** Fails the transaction when the client is absent or deleted (a booking racing a client deletion). */
export const clientIsLive = (medspaId: string, clientId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: entityKey(medspaId, 'CLIENT', clientId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
  },
});
