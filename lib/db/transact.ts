import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { auditPutFor } from './audit';
import { ddb } from './client';
import { fromItem } from './entities';

/** One action of a TransactWriteItems (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type TransactOutcome =
  | { ok: true }
  /**
   * Conditions that failed, by position in the request, each with the item as it was when the
   * condition was evaluated (null when absent, or when the action did not ask for ALL_OLD).
   */
  | { ok: false; failed: 'condition'; conditions: Map<number, Record<string, unknown> | null> }
  /** Real DynamoDB's TransactionConflict (DynamoDB Local serializes, so never there): nothing written, try again. */
  | { ok: false; failed: 'conflict' };

/** CancellationReasons items come in DynamoDB's wire format (the document client leaves errors alone). */
function oldItem(item: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!item) return null;
  const wire = typeof item.pk === 'object' && item.pk !== null;
  return wire ? unmarshall(item as Record<string, AttributeValue>) : item;
}

/**
 * One TransactWriteItems: all actions commit or none does. A cancellation by failed conditions or
 * a transaction conflict comes back as a value for the caller to map; anything else throws.
 */
export async function transactWrite(items: TransactItem[]): Promise<TransactOutcome> {
  // Appended last, unconditional: it never shifts the positions of the caller's conditions.
  const audit = auditPutFor(items);
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: audit ? [...items, audit.item] : items }));
    audit?.commit();
    return { ok: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    const conditions = new Map<number, Record<string, unknown> | null>();
    reasons.forEach((reason, index) => {
      if (reason.Code === 'ConditionalCheckFailed') conditions.set(index, oldItem(reason.Item as Record<string, unknown> | undefined));
    });
    if (conditions.size > 0) return { ok: false, failed: 'condition', conditions };
    if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return { ok: false, failed: 'conflict' };
    throw error;
  }
}

/** A failed condition's old item as the entity it holds (storage attributes dropped). */
export const oldEntity = <T>(outcome: { conditions: Map<number, Record<string, unknown> | null> }, index: number) =>
  fromItem<T>(outcome.conditions.get(index) ?? undefined);

/** Bounded retries of lost races wait a little, with jitter, so racers spread out. */
export const jitter = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * attempt));
