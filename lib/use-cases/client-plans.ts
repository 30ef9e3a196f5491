import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/tokens';
import { pageRequest } from '../crypto/cursor';
import {
  commitLedgerEntry,
  commitPlanStatus,
  commitSale,
  findClientPlan,
  listClientPlans as queryClientPlans,
  listPlanLedger,
  type ClientPlanWithBalances,
  type PlanStatusChanges,
} from '../db/plans';
import type { RequestWrites } from '../db/request-writes';
import { planDueHour } from '../domain/plan-renewals';
import { membershipOnSale } from '../domain/membership';
import { toClientPlan, toLedgerEntry } from '../domain/plan-presenters';
import { applyStep, balanceStep, emptyBalance, nextPlanStatus, saleDates, type PlanAction } from '../domain/plans';
import type { ClientPlanRecord, PlanBalanceRecord } from '../domain/records';
import { localDateOf } from '../domain/time';
import { AppError } from '../errors';
import { retry } from '../retry';
import type {
  CancelPlanInput,
  ClientPlan,
  CreatePlanAdjustmentInput,
  LedgerEntry,
  SellPlanInput,
} from '../schemas/plans';
import { toListResult, type ListResult } from './list-result';
import { planPayment } from './payments';
import { readPlan } from './plans';
import { readPractice } from './practice';
import { readResource } from './resources';
import { ledgerEntry } from './plan-bookings';

/**
 * A client's plans (API reference, section 12): sold with their balances and grant entries (and
 * a payment, when given) in one write; paused, resumed and cancelled on the version read, a
 * membership's client following it in the same write (lib/domain/membership.ts); units
 * moved only by a ledger entry and its balance step together (lib/db/plans.ts).
 */

export async function readClientPlan(medspaId: string, id: string): Promise<ClientPlanWithBalances> {
  const found = await findClientPlan(medspaId, id);
  if (!found) throw new AppError('CLIENT_PLAN_NOT_FOUND');
  return found;
}

export const getClientPlan = async (medspaId: string, id: string): Promise<ClientPlan> => {
  const { plan, balances } = await readClientPlan(medspaId, id);
  return toClientPlan(plan, balances);
};

/** Sells a plan to a client: the plan must be on sale; its units are granted at once. */
export async function sellPlan(
  medspaId: string,
  clientId: string,
  input: SellPlanInput,
  now: Date,
  writes?: RequestWrites,
): Promise<ClientPlan> {
  const [client, plan, practice] = await Promise.all([
    readResource('client', medspaId, clientId),
    readPlan(medspaId, input.plan_id),
    readPractice(medspaId),
  ]);
  if (!plan.active) throw new AppError('PLAN_NOT_ACTIVE', 'This plan is not on sale (active: false)');
  const at = now.toISOString();
  const startsOn = input.starts_on ?? localDateOf(at, practice.time_zone);
  const id = randomUUID();
  const record: ClientPlanRecord = {
    id,
    medspa_id: medspaId,
    client_id: clientId,
    plan_id: plan.id,
    kind: plan.kind,
    name: plan.name,
    price_cents: plan.price_cents,
    service_ids: plan.benefits.map((b) => b.service_id),
    status: 'active',
    starts_on: startsOn,
    ...saleDates(plan, startsOn),
    cancel_reason: null,
    cancel_at_term_end: false,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const grants = plan.benefits.map((benefit) => {
    const empty: PlanBalanceRecord = {
      ...emptyBalance(benefit.service_id),
      medspa_id: medspaId,
      client_plan_id: id,
      version: 0,
    };
    return { empty, entry: ledgerEntry(empty, 'grant', benefit.quantity, at)! };
  });
  const balances = grants.map(({ empty, entry }) => ({
    ...empty,
    ...applyStep(empty, balanceStep('grant', entry.quantity))!,
    version: 1,
  }));
  const payment = input.payment
    ? planPayment(medspaId, clientId, input.payment, { currency: practice.currency, now })
    : null;
  // A membership governs its client's membership fields from its sale on (the most recently sold
  // does): written on the client's version read, so a PATCH or another sale in between means
  // reading the client again (concurrent sales thus settle one after the other).
  const membership = membershipOnSale(record);
  await retry<void>(
    async (attempt) => {
      const current = attempt === 1 ? client : await readResource('client', medspaId, clientId);
      const outcome = await commitSale(
        { plan: record, balances, dueHour: planDueHour(record, practice.time_zone, now) },
        grants.map((g) => g.entry),
        payment,
        membership && { client: current, membership },
        writes,
      );
      if (outcome === 'gone') throw new AppError('CLIENT_NOT_FOUND');
      return outcome === 'sold' ? { done: undefined } : { retry: attempt <= 3 ? 'now' : 'later' };
    },
    {
      attempts: SALE_ATTEMPTS,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', 'The client is changing too fast; try again');
      },
    },
  );
  return toClientPlan(record, balances);
}

/** Enough tries for a burst of sales and edits of one client (each failed try means another committed). */
const SALE_ATTEMPTS = 16;

export async function listClientPlans(
  medspaId: string,
  clientId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<ClientPlan>> {
  const [, page] = await Promise.all([
    readResource('client', medspaId, clientId),
    queryClientPlans(medspaId, clientId, pageRequest(medspaId, 'client-plans', { ...query, client_id: clientId })),
  ]);
  return toListResult({ ...page, items: page.items.map(({ plan, balances }) => toClientPlan(plan, balances)) });
}

/** Pause, resume or cancel, on the version read (a concurrent change: read again and decide again). */
export function changePlanStatus(
  medspaId: string,
  id: string,
  action: PlanAction,
  input: CancelPlanInput,
  now: Date,
  writes?: RequestWrites,
): Promise<ClientPlan> {
  const at = now.toISOString();
  return retry<ClientPlan>(
    async (attempt) => {
      const [{ plan, balances }, practice] = await Promise.all([readClientPlan(medspaId, id), readPractice(medspaId)]);
      const status = nextPlanStatus(plan.status, action);
      if (!status)
        throw new AppError('INVALID_STATUS_TRANSITION', `A plan that is ${plan.status} cannot be ${action}d`);
      if (action === 'cancel' && input.at_term_end && plan.kind !== 'membership')
        throw new AppError('VALIDATION_ERROR', 'at_term_end is for memberships', {
          details: [{ path: 'at_term_end', message: 'only a membership has terms' }],
        });
      const changes: PlanStatusChanges =
        action === 'cancel'
          ? input.at_term_end
            ? { cancel_at_term_end: true, cancel_reason: input.reason ?? null }
            : { status, cancel_reason: input.reason ?? null }
          : { status };
      // A pause takes a membership off the due index, a resume puts it back (renewing within the
      // hour if its term ended meanwhile), a cancel now takes any plan off; a membership's status
      // move carries its client's membership in the same write.
      const dueHour = planDueHour({ ...plan, ...changes }, practice.time_zone, now);
      const outcome = await commitPlanStatus(plan, changes, at, dueHour, writes);
      if (outcome.ok) return { done: toClientPlan(outcome.item, balances) };
      if (outcome.failed === 'absent') throw new AppError('CLIENT_PLAN_NOT_FOUND');
      return { retry: attempt <= 3 ? 'now' : 'later' };
    },
    {
      attempts: 8,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', 'The plan is changing too fast; try again');
      },
    },
  );
}

/** Enough tries for every entry of a burst to take its turn (each failed try means another committed). */
const LEDGER_ATTEMPTS = 64;

/**
 * An adjustment: planned from the balance read, written on its version with its entry; a lost
 * race plans again from the balance the failed condition returned (no re-read). Never below zero.
 */
export async function adjustBalance(
  caller: Caller,
  clientPlanId: string,
  input: CreatePlanAdjustmentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<LedgerEntry> {
  // The plan's partition holds its balances: the one read finds the service's, if the plan has it.
  const { balances } = await readClientPlan(caller.medspaId, clientPlanId);
  let balance = balances.find((found) => found.service_id === input.service_id) ?? null;
  if (!balance) throw new AppError('PLAN_NOT_APPLICABLE', 'The plan has no units of this service');
  const at = now.toISOString();
  return retry<LedgerEntry>(
    async (attempt) => {
      const entry = ledgerEntry(balance!, 'adjust', input.delta, at, { reason: input.reason });
      if (!entry)
        throw new AppError(
          'ENTITLEMENT_EXHAUSTED',
          `Only ${balance!.remaining} remaining; cannot take away ${-input.delta}`,
        );
      const result = await commitLedgerEntry(balance!, entry, writes);
      if (result.ok) return { done: toLedgerEntry(entry) };
      if (!result.current) throw new AppError('CLIENT_PLAN_NOT_FOUND');
      balance = result.current;
      return { retry: attempt <= 3 ? 'now' : 'later' };
    },
    {
      attempts: LEDGER_ATTEMPTS,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', "The plan's balance is changing too fast; try again");
      },
    },
  );
}

/** The ledger, newest first; the client plan's 404 for unknown ids. */
export async function listLedger(
  medspaId: string,
  clientPlanId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<LedgerEntry>> {
  const page = pageRequest(medspaId, 'plan-ledger', { ...query, client_plan_id: clientPlanId });
  const [, ledger] = await Promise.all([
    readClientPlan(medspaId, clientPlanId),
    listPlanLedger(medspaId, clientPlanId, page),
  ]);
  return toListResult({ ...ledger, items: ledger.items.map(toLedgerEntry) });
}
