import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { retry } from '../retry';
import { ddb } from './client';
import { plainItem } from './conditions';
import { DataFailure } from './failure';
import type { RequestWrites } from './request-writes';
import type { TransactItem } from './transact-types';

export type { TransactItem } from './transact-types';

/**
 * A transaction action with a name from its commit's literal union, so a failed condition maps to
 * a result by name, never by position or by a name parsed back from a string. An action may carry
 * more (e.g. the claim change it writes): the failure hands it back as given.
 */
export interface NamedAction<N extends string = string> {
  name: N;
  action: TransactItem;
}

/** A named action whose condition failed, with the item as it was then (null when absent, or when the action did not ask for ALL_OLD). */
export type Failed<A extends NamedAction> = A & { old: Record<string, unknown> | null };

export type TransactOutcome<A extends NamedAction = NamedAction> =
  | { ok: true }
  /** Every action whose condition failed, in the order given. */
  | { ok: false; failed: Failed<A>[] };

/** DynamoDB's limit on the actions of one TransactWriteItems. */
export const MAX_TRANSACTION_ACTIONS = 100;

/** How many times a transaction that DynamoDB cancelled for a conflict (nothing written) is sent. */
const CONFLICT_ATTEMPTS = 6;

function failedOf<A extends NamedAction>(actions: readonly A[], error: TransactionCanceledException): Failed<A>[] {
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' && index < actions.length
      ? [{ ...actions[index], old: plainItem(reason.Item) ?? null }]
      : [],
  );
}

/**
 * The `ClientRequestToken` of one transaction: a random UUID (36 characters, the API's maximum).
 * With it, DynamoDB answers a resend of a committed transaction within 10 minutes with success
 * instead of judging its conditions again (they would fail now: a booking that committed, whose
 * answer was lost, would answer 409). "Derived from the request" means per transaction sent, not
 * per HTTP request: the SDK's own retries resend the command's serialized body, token included;
 * every new send of ours (after a TransactionConflict here, a lost race in the callers' loops,
 * another transaction of the same request) gets a new one, because the same token with other
 * items is an IdempotentParameterMismatchException and a reused one would be answered from the
 * first send instead of judged. Not request id + attempt number: a request sends several
 * transactions, so that would need a counter threaded through every caller, for nothing DynamoDB
 * uses. (The SDK would fill in a random one itself; set here, it is a decision, not a serializer detail.)
 */
const newTransactionToken = (): string => randomUUID();

/**
 * One TransactWriteItems: all actions commit or none does, with the request's own writes (audit,
 * idempotency) appended when given. Failed conditions come back as a value, by action name.
 * A `TransactionConflict` (real DynamoDB cancels a transaction that races another on an item;
 * nothing was written, and DynamoDB Local never does it) is sent again with jitter, bounded, under
 * a new token: conditions are evaluated afresh each time, so a resend is always safe.
 * (`TransactionInProgressException`, a resend racing its own first send, the SDK retries itself
 * with backoff as a throttling error, under the same token.)
 */
export async function transact<A extends NamedAction>(
  actions: readonly A[],
  writes?: RequestWrites,
): Promise<TransactOutcome<A>> {
  const own = actions.map((named) => named.action);
  if (own.length > MAX_TRANSACTION_ACTIONS)
    throw new DataFailure('too_large', `${own.length} actions in one transaction (at most ${MAX_TRANSACTION_ACTIONS})`);
  const extra = writes?.itemsFor(own) ?? [];
  const items = own.length + extra.length <= MAX_TRANSACTION_ACTIONS ? [...own, ...extra] : own;
  return retry<TransactOutcome<A>>(
    async () => {
      try {
        await ddb().send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: newTransactionToken() }));
        if (items.length > own.length) writes?.markCommitted();
        return { done: { ok: true } };
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const failed = failedOf(actions, error);
        if (failed.length > 0) return { done: { ok: false, failed } };
        if (!(error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict')) throw error;
        return { retry: 'later' };
      }
    },
    {
      attempts: CONFLICT_ATTEMPTS,
      exhausted: () => {
        throw new DataFailure('busy', 'The resource is busy with concurrent changes; try again');
      },
    },
  );
}

/**
 * One action alone, or with the request's own writes when it has any left to commit (a keyed
 * POST's Idempotency-Key marker and its audit entry): then one TransactWriteItems, else the plain
 * command. Either way one round trip and one outcome; a failed condition is the action's by name.
 */
export async function writeOne<A extends NamedAction>(named: A, writes?: RequestWrites): Promise<TransactOutcome<A>> {
  const { Put, Update, Delete } = named.action;
  if ((writes?.itemsFor([named.action]).length ?? 0) > 0 || !(Put || Update || Delete))
    return transact([named], writes);
  try {
    if (Put) await ddb().send(new PutCommand(Put));
    else if (Update) await ddb().send(new UpdateCommand(Update));
    else await ddb().send(new DeleteCommand(Delete!));
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { ok: false, failed: [{ ...named, old: plainItem(error.Item) ?? null }] };
  }
}

/** The actions of A named one of N (each member narrowed to those names). */
type NamedOneOf<A extends NamedAction, N extends string> = A extends NamedAction
  ? [N & A['name']] extends [never]
    ? never
    : A & { name: N & A['name'] }
  : never;

/** The first of `names` whose condition failed, in the order given (the API reference's order of checks). */
export function firstFailed<A extends NamedAction, N extends A['name']>(
  failed: readonly Failed<A>[],
  names: readonly N[],
): Failed<NamedOneOf<A, N>> | undefined {
  for (const name of names) {
    const found = failed.find((failure) => failure.name === name);
    if (found) return found as Failed<NamedOneOf<A, N>>;
  }
  return undefined;
}
