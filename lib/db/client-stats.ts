import { entityKey } from './keys';
import { tableName } from './client';
import type { TransactItem } from './appointments';

/**
 * The client's visit and spend statistics change in the same transaction as the fact that
 * changes them (an appointment completed or missed, a payment recorded), so they never drift.
 * The client must exist and not be deleted, or the whole transaction fails.
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
    // Completions arrive roughly in time order; keep the later of the two visit times.
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
  const lastVisitGuard = change.visitAt ? ' AND (attribute_not_exists(last_visit_at) OR last_visit_at = :null OR last_visit_at <= :visitAt)' : '';
  if (change.visitAt) values[':null'] = null;
  return {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'CLIENT', clientId),
      UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].filter(Boolean).join(' '),
      ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(deleted_at)${lastVisitGuard}`,
      ExpressionAttributeValues: values,
    },
  };
}
