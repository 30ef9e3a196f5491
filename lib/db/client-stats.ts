import { entityKey } from './keys';
import { tableName } from './client';
import type { TransactItem } from './transact-types';

/**
 * The client's statistics, changed in the same transaction as their fact; the client item must
 * exist (it always does), `last_visit_at` is last-writer-wins
 * (docs/decisions/0010-client-statistics-in-the-same-transaction.md).
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
      UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : '']
        .filter(Boolean)
        .join(' '),
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
