import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../errors';
import { ddb } from './client';
import { plainItem } from './conditions';
import type { RequestWrites } from './request-writes';
import type { TransactItem } from './transact-types';

export type { TransactItem } from './transact-types';

/** A transaction action with a name, so a failed condition maps to a domain result by name, never by position. */
export interface NamedAction {
  name: string;
  action: TransactItem;
}

export type TransactOutcome =
  | { ok: true }
  /**
   * The conditions that failed, by action name, each with the item as it was when the condition
   * was evaluated (null when absent, or when the action did not ask for ALL_OLD).
   */
  | { ok: false; failed: Map<string, Record<string, unknown> | null> };

/** How many times a transaction that DynamoDB cancelled for a conflict (nothing written) is sent again. */
const CONFLICT_ATTEMPTS = 6;

/** Bounded retries of lost races wait a little, with jitter, so racers spread out. */
export const jitter = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * attempt));

/**
 * One TransactWriteItems: all actions commit or none does, with the request's own writes (audit,
 * idempotency) appended when given. Failed conditions come back as a value, by action name.
 * A `TransactionConflict` (real DynamoDB cancels a transaction that races another on an item;
 * nothing was written, and DynamoDB Local never does it) is sent again with jitter, bounded:
 * conditions are evaluated afresh each time, so a resend is always safe.
 */
export async function transact(actions: NamedAction[], writes?: RequestWrites): Promise<TransactOutcome> {
  const own = actions.map((named) => named.action);
  const extra = writes?.itemsFor(own) ?? [];
  const items = own.length + extra.length <= 100 ? [...own, ...extra] : own;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      if (items.length > own.length) writes?.markCommitted();
      return { ok: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = new Map<string, Record<string, unknown> | null>();
      reasons.forEach((reason, index) => {
        if (reason.Code === 'ConditionalCheckFailed' && index < actions.length) failed.set(actions[index].name, plainItem(reason.Item) ?? null);
      });
      if (failed.size > 0) return { ok: false, failed };
      const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (!conflict) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) throw new AppError('CONFLICT', 'The resource is busy with concurrent changes; try again');
      await jitter(attempt);
    }
  }
}

/** The first of `names` whose condition failed, in the order given (the contract's order of checks). */
export const firstFailed = (outcome: { failed: Map<string, unknown> }, names: readonly string[]) => names.find((name) => outcome.failed.has(name));
