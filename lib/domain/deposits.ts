/**
 * Deposits and cancellation fees (API reference, section 11), pure: what a service asks up front,
 * what a late cancel or a no-show costs under the policy snapshotted on the appointment, and how
 * fee payments and waivers move a fee. Amounts are integer minor units; a percent is of the
 * appointment's (or the service's) `price_cents`, rounded half up to a cent.
 */

export const DEPOSIT_TYPES = ['none', 'fixed', 'percent'] as const;
export const CHARGE_TYPES = ['fixed', 'percent'] as const;
export const FEE_KINDS = ['late_cancel', 'no_show'] as const;
export const FEE_STATUSES = ['due', 'paid', 'waived'] as const;

/** A fee's amount rule: fixed cents, or a percent (two decimals at most) of the price. */
export interface Charge {
  type: (typeof CHARGE_TYPES)[number];
  value: number;
}
export interface DepositRule {
  type: (typeof DEPOSIT_TYPES)[number];
  value: number;
}
export const NO_DEPOSIT: DepositRule = { type: 'none', value: 0 };

export interface CancellationPolicy {
  late_cancel_minutes: number;
  late_cancel_fee: Charge;
  no_show_fee: Charge;
}

export type FeeKind = (typeof FEE_KINDS)[number];
export interface Fee {
  kind: FeeKind;
  amount_cents: number;
  deposit_applied_cents: number;
  due_cents: number;
  status: (typeof FEE_STATUSES)[number];
  assessed_at: string;
  /** Set when waived (at the cancel or later); null otherwise. */
  waived_at: string | null;
  waive_reason: string | null;
}

/**
 * `percent`% of `cents`, rounded half up. Integer arithmetic on hundredths of a percent, so
 * 12.5% of 1999 is 250 (249.875) and 10% of 1005 is 101 (100.5), with no float drift.
 */
export function percentOfCents(cents: number, percent: number): number {
  const hundredths = Math.round(percent * 100);
  return Math.floor((cents * hundredths * 2 + 10_000) / 20_000);
}

export const chargeCents = (charge: Charge | DepositRule, priceCents: number): number =>
  charge.type === 'fixed' ? charge.value : charge.type === 'percent' ? percentOfCents(priceCents, charge.value) : 0;

/** The deposit a booking of this service asks (0: none). `price_cents` is the booking's price (the service's unless overridden). */
export const depositRequiredCents = (service: { deposit?: DepositRule; price_cents: number }): number =>
  chargeCents(service.deposit ?? NO_DEPOSIT, service.price_cents);

/**
 * The deposit a booking asks of what its service quotes: none when it is booked against a client
 * plan (it costs 0, its unit prepaid: section 12), whatever the path (create, series, hold confirm).
 */
export const bookingDepositCents = (quoted: number, clientPlanId: string | null | undefined): number =>
  clientPlanId ? 0 : quoted;

const MINUTE_MS = 60_000;

/** What a fee is assessed on: the appointment as read, with its snapshots. */
export interface FeeBasis {
  scheduled_at: string;
  price_cents: number;
  deposit_paid_cents: number;
  cancellation_policy: CancellationPolicy | null;
  fees: readonly Fee[];
}

/** Which fee a move to `to` at `now` assesses, if any: a cancel inside the late window, or a no-show. */
export function feeKindOf(basis: FeeBasis, to: string, now: Date): FeeKind | null {
  const policy = basis.cancellation_policy;
  if (!policy) return null;
  if (to === 'no_show') return 'no_show';
  if (to !== 'cancelled') return null;
  const late = now.getTime() > Date.parse(basis.scheduled_at) - policy.late_cancel_minutes * MINUTE_MS;
  return late ? 'late_cancel' : null;
}

/**
 * The fee a move to `to` assesses (null: none, or a zero amount). The deposit paid and not yet
 * applied to another fee is applied first. A waived fee (a staff cancel with `waive_fee`) keeps
 * its amount for the record and applies nothing. An appointment booked on a plan (section 12,
 * not built yet) will use the plan's unit instead of a money fee: the caller decides that.
 */
export function assessFee(basis: FeeBasis, to: string, now: Date, waive?: { reason: string | null }): Fee | null {
  const kind = feeKindOf(basis, to, now);
  if (!kind) return null;
  const policy = basis.cancellation_policy!;
  const amount = chargeCents(kind === 'no_show' ? policy.no_show_fee : policy.late_cancel_fee, basis.price_cents);
  if (amount <= 0) return null;
  const at = now.toISOString();
  if (waive)
    return waivedFee(
      { kind, amount_cents: amount, deposit_applied_cents: 0, due_cents: amount, assessed_at: at },
      at,
      waive.reason,
    );
  const alreadyApplied = basis.fees.reduce((sum, fee) => sum + fee.deposit_applied_cents, 0);
  const applied = Math.min(amount, Math.max(0, basis.deposit_paid_cents - alreadyApplied));
  const due = amount - applied;
  return {
    kind,
    amount_cents: amount,
    deposit_applied_cents: applied,
    due_cents: due,
    status: due > 0 ? 'due' : 'paid',
    assessed_at: at,
    waived_at: null,
    waive_reason: null,
  };
}

const waivedFee = (
  fee: Pick<Fee, 'kind' | 'amount_cents' | 'deposit_applied_cents' | 'due_cents' | 'assessed_at'>,
  at: string,
  reason: string | null,
): Fee => ({ ...fee, due_cents: 0, status: 'waived', waived_at: at, waive_reason: reason });

export const dueCents = (fees: readonly Fee[]): number => fees.reduce((sum, fee) => sum + fee.due_cents, 0);

/** The fees after a fee payment of `amount` (oldest due first), or null when nothing is due or it is more than is due. */
export function payFees(fees: readonly Fee[], amount: number): Fee[] | null {
  const due = dueCents(fees);
  if (due === 0 || amount > due) return null;
  let left = amount;
  return fees.map((fee) => {
    if (left === 0 || fee.due_cents === 0) return fee;
    const paid = Math.min(left, fee.due_cents);
    left -= paid;
    const remaining = fee.due_cents - paid;
    return { ...fee, due_cents: remaining, status: remaining === 0 ? 'paid' : 'due' };
  });
}

/** The fees with the due fee of `kind` waived, or null when there is no such fee still due. */
export function waiveFee(fees: readonly Fee[], kind: FeeKind, at: string, reason: string | null): Fee[] | null {
  const index = fees.findIndex((fee) => fee.kind === kind && fee.status === 'due');
  if (index < 0) return null;
  return fees.map((fee, i) => (i === index ? waivedFee(fee, at, reason) : fee));
}

/** An appointment's money fields when nothing was asked and no policy applies (what old items read as). */
export const NO_MONEY_TERMS = {
  deposit_required_cents: 0,
  deposit_paid_cents: 0,
  cancellation_policy: null,
  fees: [] as Fee[],
};
