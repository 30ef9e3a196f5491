import type { PageRequest } from '../crypto/cursor';
import { balanceStep } from '../domain/plans';
import type {
  ClientPlanRecord,
  PaymentRecord,
  PlanBalanceRecord,
  PlanLedgerRecord,
  PlanRecord,
} from '../domain/records';
import { tableName } from './client';
import { clientIsLive } from './client-stats';
import { clientPlanCodec, planBalanceCodec, planCodec, planLedgerCodec } from './codecs';
import { DataFailure } from './failure';
import { itemId, readItems } from './key-reads';
import { clientPlanKey, clientPlanPk, clientPlansIndexPk, planBalanceKey, planLedgerPk } from './keys';
import { paymentItems } from './payments';
import { putNew } from './put-new';
import { listEntities, queryOnce, queryPage, type Decoder, type Filter, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { getLiveEntity } from './resources';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';
import { updateEntity, updateItem, type UpdateOptions } from './update';

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

const putAction = (Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
});

/**
 * A sale in ONE transaction: the client plan, its balances, their grant entries and, when paid,
 * the payment (which also requires the client to be live), else a check that it is.
 * Fails (false) only when the client is gone.
 */
export async function commitSale(
  sale: ClientPlanWithBalances,
  grants: PlanLedgerRecord[],
  payment: PaymentRecord | null,
  writes?: RequestWrites,
): Promise<boolean> {
  const { plan } = sale;
  // A payment's raise of its client's spend is conditioned on a live client itself.
  const [spend, put] = payment ? paymentItems(payment) : [clientIsLive(plan.medspa_id, plan.client_id)];
  const actions: NamedAction[] = [
    { name: 'client', action: spend },
    ...(put ? [{ name: 'payment', action: put }] : []),
    { name: 'plan', action: putAction(clientPlanCodec.toItem(plan)) },
    ...sale.balances.map((b) => ({ name: 'balance', action: putAction(planBalanceCodec.toItem(b)) })),
    ...grants.map((e) => ({ name: 'ledger', action: putAction(planLedgerCodec.toItem(e)) })),
  ];
  const outcome = await transact(actions, writes);
  if (outcome.ok) return true;
  if (firstFailed(outcome.failed, ['client'])) return false;
  throw new DataFailure('collision', `client plan ${plan.id}: an item of the sale already exists`);
}

/**
 * A balance moved by a ledger entry's step (or by several unit entries' at once, as a series'
 * reservation), only if it is still at the version read (so each entry's `balance_after` is exact);
 * ALL_OLD on failure.
 */
export function balanceStepAction(
  balance: PlanBalanceRecord,
  entry: Pick<PlanLedgerRecord, 'kind' | 'quantity'>,
): TransactItem {
  const step = balanceStep(entry.kind, entry.quantity);
  const fields = ['granted', 'reserved', 'used', 'expired', 'remaining'] as const;
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

export const ledgerPutAction = (entry: PlanLedgerRecord): TransactItem => putAction(planLedgerCodec.toItem(entry));

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

/** A client plan's status change on the version read. */
export const updateClientPlan = (plan: ClientPlanRecord, changes: Record<string, unknown>, now: string) =>
  updateItem(clientPlanCodec, clientPlanKey(plan.medspa_id, plan.id), changes, {
    expectedVersion: plan.version,
    now,
  });

/** A client plan's ledger, newest first. */
export const listPlanLedger = (medspaId: string, clientPlanId: string, page: PageRequest) =>
  queryPage(planLedgerCodec, { partition: planLedgerPk(medspaId, clientPlanId), ...page, descending: true });
