import { addDays } from './time';

/**
 * Plans (API reference, section 12): packages and memberships, a client's plans and the unit
 * ledger's arithmetic. Pure: the data layer writes what these decide.
 */

export const PLAN_KINDS = ['package', 'membership'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export const CLIENT_PLAN_STATUSES = ['active', 'paused', 'cancelled', 'expired'] as const;
export type ClientPlanStatus = (typeof CLIENT_PLAN_STATUSES)[number];

export const LEDGER_KINDS = ['grant', 'reserve', 'release', 'use', 'expire', 'adjust'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** A client plan's units of one service: `remaining = granted - reserved - used - expired`, each never below 0. */
export interface Balance {
  service_id: string;
  granted: number;
  reserved: number;
  used: number;
  expired: number;
  remaining: number;
}

/** How a ledger entry moves a balance: counts added to each field (a reserve takes one from remaining into reserved). */
export type BalanceStep = Pick<Balance, 'granted' | 'reserved' | 'used' | 'expired' | 'remaining'>;

const step = (fields: Partial<BalanceStep>): BalanceStep => ({
  granted: 0,
  reserved: 0,
  used: 0,
  expired: 0,
  remaining: 0,
  ...fields,
});

/** The counters a ledger entry of this kind and quantity (a signed delta for `adjust`) moves. */
export function balanceStep(kind: LedgerKind, quantity: number): BalanceStep {
  switch (kind) {
    case 'grant':
      return step({ granted: quantity, remaining: quantity });
    case 'adjust':
      return step({ granted: quantity, remaining: quantity });
    case 'reserve':
      return step({ reserved: quantity, remaining: -quantity });
    case 'release':
      return step({ reserved: -quantity, remaining: quantity });
    case 'use':
      return step({ reserved: -quantity, used: quantity });
    case 'expire':
      return step({ expired: quantity, remaining: -quantity });
  }
}

/** The balance after a step, or null when a counter would go below zero (the ledger's floor). */
export function applyStep(balance: Balance, change: BalanceStep): Balance | null {
  const next: Balance = {
    service_id: balance.service_id,
    granted: balance.granted + change.granted,
    reserved: balance.reserved + change.reserved,
    used: balance.used + change.used,
    expired: balance.expired + change.expired,
    remaining: balance.remaining + change.remaining,
  };
  const fields = [next.granted, next.reserved, next.used, next.expired, next.remaining];
  return fields.every((n) => n >= 0) ? next : null;
}

/**
 * The balances after each of `count` unit steps of one kind taken in one write (a series reserves
 * one unit per occurrence): each ledger entry's `balance_after` in order, or null when a counter
 * would go below zero on the way.
 */
export function unitSteps<B extends Balance>(balance: B, kind: LedgerKind, count: number): B[] | null {
  const after: B[] = [];
  let current: B = balance;
  for (let i = 0; i < count; i++) {
    const next = applyStep(current, balanceStep(kind, 1));
    if (!next) return null;
    current = { ...current, ...next };
    after.push(current);
  }
  return after;
}

export const emptyBalance = (serviceId: string): Balance => ({
  service_id: serviceId,
  granted: 0,
  reserved: 0,
  used: 0,
  expired: 0,
  remaining: 0,
});

/** `months` calendar months after a date, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addCalendarMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number);
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, last));
  return first.toISOString().slice(0, 10);
}

export interface PlanTerms {
  kind: PlanKind;
  term_months: number | null;
  valid_days: number | null;
}

/**
 * A sale's dates: a membership's first term (its last day is the day before the next term starts),
 * a package's expiry (`valid_days` after the sale's start; none without it).
 */
export function saleDates(plan: PlanTerms, startsOn: string) {
  if (plan.kind === 'membership') {
    const next = addCalendarMonths(startsOn, plan.term_months ?? 1);
    return { current_term: { starts_on: startsOn, ends_on: addDays(next, -1) }, expires_on: null };
  }
  return { current_term: null, expires_on: plan.valid_days === null ? null : addDays(startsOn, plan.valid_days) };
}

export type PlanAction = 'pause' | 'resume' | 'cancel';

/** The status an action leads to from this one, or null when it may not (409 INVALID_STATUS_TRANSITION). */
export function nextPlanStatus(status: ClientPlanStatus, action: PlanAction): ClientPlanStatus | null {
  if (action === 'pause') return status === 'active' ? 'paused' : null;
  if (action === 'resume') return status === 'paused' ? 'active' : null;
  return status === 'active' || status === 'paused' ? 'cancelled' : null;
}

/**
 * Why a client plan cannot take a booking of this service for this client (the create's order:
 * another client's or no benefit is PLAN_NOT_APPLICABLE, then PLAN_NOT_ACTIVE), or null.
 */
export function bookingProblem(
  plan: { client_id: string; status: ClientPlanStatus; service_ids: readonly string[] },
  booking: { client_id: string; service_id: string },
): 'PLAN_NOT_APPLICABLE' | 'PLAN_NOT_ACTIVE' | null {
  if (plan.client_id !== booking.client_id || !plan.service_ids.includes(booking.service_id))
    return 'PLAN_NOT_APPLICABLE';
  return plan.status === 'active' ? null : 'PLAN_NOT_ACTIVE';
}

/** A plan's terms that the body's schema cannot relate to its kind, as `[path, message]`, or null. */
export function termsProblem(terms: {
  kind: PlanKind;
  term_months?: number;
  valid_days?: number;
  rollover?: boolean;
}): [string, string] | null {
  if (terms.kind === 'membership') {
    if (terms.term_months === undefined) return ['term_months', 'term_months is required for a membership'];
    if (terms.valid_days !== undefined) return ['valid_days', 'valid_days is for packages; a membership has terms'];
    return null;
  }
  if (terms.term_months !== undefined) return ['term_months', 'term_months is for memberships'];
  if (terms.rollover !== undefined) return ['rollover', 'rollover is for memberships'];
  return null;
}

/**
 * How a plan-booked appointment's reserved unit settles when it stops holding time (sections 11
 * and 12): a completion uses it, so does a no-show or a late cancel (the cancel inside the
 * policy's window: `lateFee`) unless the staff waive the fee; an early cancel or a delete releases it.
 */
export function settlementOf(to: string, lateFee: boolean, waived: boolean): 'use' | 'release' {
  if (to === 'completed') return 'use';
  if (waived) return 'release';
  if (to === 'no_show') return 'use';
  return to === 'cancelled' && lateFee ? 'use' : 'release';
}
