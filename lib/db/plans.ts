import type { PageRequest } from '../crypto/cursor';
import { endsGoverning, membershipEffect, movesMembership, successorOf, type Membership } from '../domain/membership';
import { balanceStep, type ClientPlanStatus } from '../domain/plans';
import type {
  ClientPlanRecord,
  ClientRecord,
  PaymentRecord,
  PlanBalanceRecord,
  PlanLedgerRecord,
  PlanRecord,
  PlanSaleRecord,
} from '../domain/records';
import { tableName } from './client';
import { clientIsLive } from './client-stats';
import { clientMembershipWrites, notGovernedBy } from './client-membership';
import { clientPlanCodec, planBalanceCodec, planCodec, planLedgerCodec, planSaleCodec } from './codecs';
import { DataFailure } from './failure';
import { itemId, readItems } from './key-reads';
import {
  clientPlanKey,
  clientPlanPk,
  clientPlansIndexPk,
  planBalanceKey,
  planLedgerPk,
  plansDueIndexKeys,
} from './keys';
import { paymentItems } from './payments';
import { newItemAction, putNew } from './put-new';
import {
  listEntities,
  oneOf,
  queryAll,
  queryOnce,
  queryPage,
  where,
  type Decoder,
  type Filter,
  type Page,
} from './query';
import type { RequestWrites } from './request-writes';
import { getLiveEntity } from './resources';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';
import { afterUpdate, updateEntity, updateItem, versionedUpdate, type UpdateOptions } from './update';

/**
 * Plans, client plans and their unit ledger (API reference, section 12). A balance item changes
 * only by an update conditioned on the exact version read, in the same transaction as its ledger
 * entry: so each entry's `balance_after` is exact and no counter goes below zero under any
 * concurrency (the stock ledger's discipline, lib/db/products.ts).
 */

export const findPlan = (medspaId: string, id: string) => getLiveEntity(medspaId, 'PLAN', id);
export const putNewPlan = (plan: PlanRecord, writes?: RequestWrites) => putNew(planCodec, plan, writes);
export const updatePlan = (medspaId: string, id: string, changes: Record<string, unknown>, options: UpdateOptions) =>
  updateEntity(planCodec, medspaId, id, changes, options);
export const listPlans = (medspaId: string, page: PageRequest, filter?: Filter): Promise<Page<PlanRecord>> =>
  listEntities(planCodec, medspaId, page, filter);

export interface ClientPlanWithBalances {
  plan: ClientPlanRecord;
  balances: PlanBalanceRecord[];
}

const clientPlanPartition: Decoder<ClientPlanRecord | PlanBalanceRecord> = {
  fromItem: (item) => (item?.sk === 'PLAN' ? clientPlanCodec.fromItem(item) : planBalanceCodec.fromItem(item)),
};

/** A client plan and its balances: one strongly consistent Query on its partition (null when absent). */
export async function findClientPlan(medspaId: string, id: string): Promise<ClientPlanWithBalances | null> {
  const items = await queryOnce(clientPlanPartition, { partition: clientPlanPk(medspaId, id), consistent: true });
  const plan = items.find((item): item is ClientPlanRecord => 'status' in item);
  if (!plan) return null;
  return { plan, balances: items.filter((item): item is PlanBalanceRecord => 'remaining' in item) };
}

/** One balance, read strongly (null when the plan has no such service). */
export async function findBalance(medspaId: string, clientPlanId: string, serviceId: string) {
  const key = planBalanceKey(medspaId, clientPlanId, serviceId);
  return planBalanceCodec.fromItem((await readItems([key])).get(itemId(key)));
}

/** A page of a client's plans (newest first), each with its balances read in one batch. */
export async function listClientPlans(
  medspaId: string,
  clientId: string,
  page: PageRequest,
): Promise<Page<ClientPlanWithBalances>> {
  const plans = await queryPage(clientPlanCodec, {
    index: 'gsi2',
    partition: clientPlansIndexPk(medspaId, clientId),
    ...page,
    descending: true,
  });
  const keys = plans.items.flatMap((plan) => plan.service_ids.map((s) => planBalanceKey(medspaId, plan.id, s)));
  const found = await readItems(keys);
  return {
    ...plans,
    items: plans.items.map((plan) => ({
      plan,
      balances: plan.service_ids
        .map((s) => planBalanceCodec.fromItem(found.get(itemId(planBalanceKey(medspaId, plan.id, s)))))
        .filter((balance): balance is PlanBalanceRecord => balance !== null),
    })),
  };
}

/** What the revenue report counts of a sale: the price as sold, when. */
const planSaleOf = (plan: ClientPlanRecord): PlanSaleRecord => ({
  medspa_id: plan.medspa_id,
  client_plan_id: plan.id,
  client_id: plan.client_id,
  plan_id: plan.plan_id,
  price_cents: plan.price_cents,
  created_at: plan.created_at,
});

/** A membership sale's effect on its client: the client as read and what it shows from now on. */
export interface SaleMembership {
  client: ClientRecord;
  membership: Membership;
}

/** `gone`: the client is absent or deleted; `moved`: the client changed since it was read (read again). */
export type SaleOutcome = 'sold' | 'gone' | 'moved';

/**
 * A sale in ONE transaction: the client plan, its balances, their grant entries and, when paid,
 * the payment; the client's side is, in this order of precedence, its new membership (a
 * membership plan; on the version read, with the payment's raise of its spend), the payment's
 * raise of its spend (conditioned on a live client), or a check that the client is live.
 */
export async function commitSale(
  sale: ClientPlanWithBalances & { dueHour: string | null },
  grants: PlanLedgerRecord[],
  payment: PaymentRecord | null,
  membership: SaleMembership | null,
  writes?: RequestWrites,
): Promise<SaleOutcome> {
  const { plan } = sale;
  const [spend, put] = payment ? paymentItems(payment) : [clientIsLive(plan.medspa_id, plan.client_id)];
  const client: NamedAction[] = membership
    ? clientMembershipWrites(membership.client, membership.membership, plan.created_at, payment?.amount_cents)
    : [{ name: 'client', action: spend }];
  const actions: NamedAction[] = [
    ...client,
    ...(put ? [{ name: 'payment', action: put }] : []),
    {
      name: 'plan',
      action: newItemAction({ ...clientPlanCodec.toItem(plan), ...dueIndex(plan, sale.dueHour).indexKeys }),
    },
    { name: 'sale', action: newItemAction(planSaleCodec.toItem(planSaleOf(plan))) },
    ...sale.balances.map((b) => ({ name: 'balance', action: newItemAction(planBalanceCodec.toItem(b)) })),
    ...grants.map((e) => ({ name: 'ledger', action: newItemAction(planLedgerCodec.toItem(e)) })),
  ];
  const outcome = await transact(actions, writes);
  if (outcome.ok) return 'sold';
  const failed = firstFailed(outcome.failed, ['client']);
  if (failed) return membership && failed.old && !failed.old.deleted_at ? 'moved' : 'gone';
  throw new DataFailure('collision', `client plan ${plan.id}: an item of the sale already exists`);
}

/**
 * A balance moved by a ledger entry's step (or by several unit entries' at once, as a series'
 * reservation), only if it is still at the version read (so each entry's `balance_after` is exact);
 * ALL_OLD on failure.
 */
export const balanceStepAction = (
  balance: PlanBalanceRecord,
  entry: Pick<PlanLedgerRecord, 'kind' | 'quantity'>,
): TransactItem => balanceStepsAction(balance, [entry]);

/** Several entries' steps in ONE update of the balance (a transaction touches an item once): a renewal's expire and grant. */
export function balanceStepsAction(
  balance: PlanBalanceRecord,
  entries: ReadonlyArray<Pick<PlanLedgerRecord, 'kind' | 'quantity'>>,
): TransactItem {
  const steps = entries.map((entry) => balanceStep(entry.kind, entry.quantity));
  const fields = ['granted', 'reserved', 'used', 'expired', 'remaining'] as const;
  const step = Object.fromEntries(
    fields.map((field) => [field, steps.reduce((sum, s) => sum + s[field], 0)]),
  ) as Record<(typeof fields)[number], number>;
  const moved = fields.filter((field) => step[field] !== 0);
  const names: Record<string, string> = { '#v': 'version' };
  const values: Record<string, unknown> = { ':v': balance.version, ':one': 1 };
  const sets = ['#v = #v + :one'];
  for (const field of moved) {
    names[`#${field}`] = field;
    values[`:${field}`] = step[field];
    sets.push(`#${field} = #${field} + :${field}`);
  }
  return {
    Update: {
      TableName: tableName(),
      Key: planBalanceKey(balance.medspa_id, balance.client_plan_id, balance.service_id),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND #v = :v',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The client plan is still active when the booking commits (a pause or cancel racing it wins or waits). */
export const clientPlanActiveCheck = (plan: ClientPlanRecord): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: clientPlanKey(plan.medspa_id, plan.id),
    ConditionExpression: '#s = :active',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':active': 'active' },
  },
});

export const ledgerPutAction = (entry: PlanLedgerRecord): TransactItem => newItemAction(planLedgerCodec.toItem(entry));

export type LedgerWriteResult = { ok: true } | { ok: false; current: PlanBalanceRecord | null };

/** One ledger entry with its balance step in ONE transaction; on a moved balance, the balance as it now is. */
export async function commitLedgerEntry(
  balance: PlanBalanceRecord,
  entry: PlanLedgerRecord,
  writes?: RequestWrites,
): Promise<LedgerWriteResult> {
  const outcome = await transact(
    [
      { name: 'balance', action: balanceStepAction(balance, entry) },
      { name: 'ledger', action: ledgerPutAction(entry) },
    ],
    writes,
  );
  if (outcome.ok) return outcome;
  const moved = firstFailed(outcome.failed, ['balance']);
  if (!moved) throw new DataFailure('collision', `ledger entry ${entry.id} already exists`);
  return { ok: false, current: planBalanceCodec.fromItem(moved.old ?? undefined) };
}

/**
 * A client plan's place on the due index (gsi1, docs/decisions/0026): its keys in the partition of
 * the UTC hour it falls due, or removed when nothing is due. Always written with the plan's own
 * change, so the index never disagrees with the plan for longer than the index's replication.
 */
export const dueIndex = (
  plan: Pick<ClientPlanRecord, 'medspa_id' | 'id'>,
  dueHour: string | null,
): Pick<UpdateOptions, 'indexKeys' | 'remove'> =>
  dueHour ? { indexKeys: plansDueIndexKeys(dueHour, plan.medspa_id, plan.id) } : { remove: ['gsi1pk', 'gsi1sk'] };

/** What a plan's status change writes besides the plan (lib/domain/membership.ts). */
export type PlanStatusChanges = Partial<
  Pick<ClientPlanRecord, 'status' | 'cancel_reason' | 'cancel_at_term_end' | 'current_term'>
>;

/** What a membership plan's status move needs read: its live client (null: none, or not a move that touches it) and, when the governing plan ends, the one that takes over. */
export interface MembershipContext {
  client: ClientRecord | null;
  successor: ClientPlanRecord | null;
}

const NO_MEMBERSHIP: MembershipContext = { client: null, successor: null };

/**
 * Reads the context of a status change: for a membership plan's status move, its client
 * (strongly) and, when the governing plan ends, its client's other active or paused membership
 * plans (gsi2, eventually consistent: the successor is checked at its version in the write).
 */
export async function membershipContextOf(
  plan: ClientPlanRecord,
  next: ClientPlanStatus | undefined,
): Promise<MembershipContext> {
  if (!movesMembership(plan, next)) return NO_MEMBERSHIP;
  const client = await getLiveEntity(plan.medspa_id, 'CLIENT', plan.client_id);
  if (!client || !endsGoverning(plan, next, client)) return { client, successor: null };
  const others = await queryAll(clientPlanCodec, {
    index: 'gsi2',
    partition: clientPlansIndexPk(plan.medspa_id, plan.client_id),
    filter: where<ClientPlanRecord>({ kind: 'membership', status: oneOf(['active', 'paused']) }),
  });
  const successor = successorOf(others, plan.id);
  return { client, successor: others.find((other) => other.id === successor?.id) ?? null };
}

export type PlanStatusAction = 'plan' | 'client' | 'clientIndex' | 'governing' | 'successor';

/**
 * THE write of a client plan's status change (pause, resume, cancel, and the sweep's expiry and
 * term-end cancel): the plan on the version read and, for a membership's status move, its
 * client's membership in the same transaction (`context` from membershipContextOf):
 * - the governing plan moved: the client follows it (or its successor, checked at the status and
 *   version read; else `cancelled` and writable again);
 * - another plan governs: a check that this one still does not.
 * Every action is conditioned on what was read: any failure means read again and decide again.
 * `dueHour` (when given) moves the plan on the due index (null: off it).
 */
export function planStatusWrites(
  plan: ClientPlanRecord,
  changes: PlanStatusChanges,
  now: string,
  context: MembershipContext,
  dueHour?: string | null,
): NamedAction<PlanStatusAction>[] {
  const actions: NamedAction<PlanStatusAction>[] = [
    { name: 'plan', action: clientPlanChangeAction(plan, changes, dueHour, now) },
  ];
  const effect = membershipEffect(plan, changes.status, context.client, context.successor);
  if (effect.kind === 'elsewhere') actions.push({ name: 'governing', action: notGovernedBy(context.client!, plan.id) });
  if (effect.kind !== 'set') return actions;
  actions.push(...clientMembershipWrites(context.client!, effect.membership, now));
  const successor = context.successor;
  if (effect.successor && successor)
    actions.push({
      name: 'successor',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: clientPlanKey(successor.medspa_id, successor.id),
          ConditionExpression: '#v = :v AND #s = :s',
          ExpressionAttributeNames: { '#v': 'version', '#s': 'status' },
          ExpressionAttributeValues: { ':v': successor.version, ':s': successor.status },
        },
      },
    });
  return actions;
}

export type PlanStatusOutcome = { ok: true; item: ClientPlanRecord } | { ok: false; failed: 'absent' | 'moved' };

/**
 * A client plan's status change, read and written (planStatusWrites): a package, or a change that
 * moves no membership, is one UpdateItem; a membership's move one TransactWriteItems, and so is any
 * change that carries the request's writes (its audit entry and Idempotency-Key mark commit with
 * it). `moved`: something read changed meanwhile (the plan, its client, the successor): read again.
 */
export async function commitPlanStatus(
  plan: ClientPlanRecord,
  changes: PlanStatusChanges,
  now: string,
  dueHour?: string | null,
  writes?: RequestWrites,
): Promise<PlanStatusOutcome> {
  const context = await membershipContextOf(plan, changes.status);
  const actions = planStatusWrites(plan, changes, now, context, dueHour);
  if (actions.length === 1 && !writes) {
    const outcome = await updateItem(clientPlanCodec, clientPlanKey(plan.medspa_id, plan.id), changes, {
      expectedVersion: plan.version,
      now,
      ...(dueHour === undefined ? {} : dueIndex(plan, dueHour)),
    });
    return outcome.ok ? outcome : { ok: false, failed: outcome.failed === 'absent' ? 'absent' : 'moved' };
  }
  const outcome = await transact(actions, writes);
  if (outcome.ok) return { ok: true, item: afterUpdate(plan, changes, now) };
  const planFailed = firstFailed(outcome.failed, ['plan']);
  return { ok: false, failed: planFailed && !planFailed.old ? 'absent' : 'moved' };
}

/** A change of the client plan on the version read (`dueHour`, when given, moves it on the due index), as a transaction action. */
export function clientPlanChangeAction(
  plan: ClientPlanRecord,
  changes: Record<string, unknown>,
  dueHour: string | null | undefined,
  now: string,
): TransactItem {
  const index = dueHour === undefined ? {} : dueIndex(plan, dueHour);
  return {
    Update: {
      TableName: tableName(),
      Key: clientPlanKey(plan.medspa_id, plan.id),
      ...versionedUpdate(changes, { expectedVersion: plan.version, now, ...index }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * A scheduled status change of a client plan (a membership cancelled at its term's end, a package
 * expired; lib/use-cases/plan-renewals.ts): planStatusWrites' actions, the plan off the due index.
 */
export async function planStatusWrite(
  plan: ClientPlanRecord,
  status: Extract<ClientPlanStatus, 'cancelled' | 'expired'>,
  now: string,
): Promise<TransactItem[]> {
  const context = await membershipContextOf(plan, status);
  return planStatusWrites(plan, { status }, now, context, null).map((named) => named.action);
}

/** A client plan's ledger, newest first. */
export const listPlanLedger = (medspaId: string, clientPlanId: string, page: PageRequest) =>
  queryPage(planLedgerCodec, { partition: planLedgerPk(medspaId, clientPlanId), ...page, descending: true });
