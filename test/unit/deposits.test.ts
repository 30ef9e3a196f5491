import { describe, expect, it } from 'vitest';
import {
  assessFee,
  bookingDepositCents,
  depositRequiredCents,
  payFees,
  percentOfCents,
  waiveFee,
  type CancellationPolicy,
  type FeeBasis,
} from '../../lib/domain/deposits';

describe('depositRequiredCents (percent of price, rounded half up)', () => {
  it.each([
    [{ type: 'none', value: 0 }, 45000, 0],
    [{ type: 'fixed', value: 5000 }, 45000, 5000],
    [{ type: 'percent', value: 10 }, 45000, 4500],
    [{ type: 'percent', value: 10 }, 1005, 101], // 100.5 -> 101
    [{ type: 'percent', value: 10 }, 1004, 100], // 100.4 -> 100
    [{ type: 'percent', value: 12.5 }, 1999, 250], // 249.875
    [{ type: 'percent', value: 33.33 }, 100, 33], // 33.33
    [{ type: 'percent', value: 50 }, 1, 1], // 0.5 -> 1
    [{ type: 'percent', value: 0.01 }, 4999, 0], // 0.4999
    [{ type: 'percent', value: 100 }, 100_000_000, 100_000_000],
    [{ type: 'percent', value: 0 }, 45000, 0],
  ] as const)('%o of %i is %i', (deposit, price, expected) => {
    expect(depositRequiredCents({ deposit, price_cents: price })).toBe(expected);
  });

  it('a service without a deposit rule asks none', () => {
    expect(depositRequiredCents({ price_cents: 45000 })).toBe(0);
  });

  it('percentOfCents has no float drift', () => {
    expect(percentOfCents(115, 10)).toBe(12); // 11.5
    expect(percentOfCents(2345, 7.7)).toBe(181); // 180.565
  });
});

const policy: CancellationPolicy = {
  late_cancel_minutes: 1440,
  late_cancel_fee: { type: 'percent', value: 50 },
  no_show_fee: { type: 'fixed', value: 10000 },
};
const start = '2026-12-10T15:00:00.000Z';
const basis = (over: Partial<FeeBasis> = {}): FeeBasis => ({
  scheduled_at: start,
  price_cents: 40000,
  deposit_paid_cents: 0,
  cancellation_policy: policy,
  fees: [],
  ...over,
});
const hoursBefore = (h: number) => new Date(Date.parse(start) - h * 3_600_000);

describe('bookingDepositCents', () => {
  it('a plan-booked appointment asks no deposit, whatever its service quotes; any other asks the quote', () => {
    expect(bookingDepositCents(5000, 'plan-1')).toBe(0);
    expect(bookingDepositCents(5000, null)).toBe(5000);
    expect(bookingDepositCents(5000, undefined)).toBe(5000);
  });
});

describe('assessFee', () => {
  it.each([
    ['early cancel', basis(), 'cancelled', 25, null],
    ['cancel exactly at the window edge', basis(), 'cancelled', 24, null],
    ['late cancel, no deposit', basis(), 'cancelled', 2, { amount: 20000, applied: 0, due: 20000, status: 'due' }],
    [
      'late cancel, deposit below the fee',
      basis({ deposit_paid_cents: 5000 }),
      'cancelled',
      2,
      { amount: 20000, applied: 5000, due: 15000, status: 'due' },
    ],
    [
      'late cancel, deposit above the fee',
      basis({ deposit_paid_cents: 30000 }),
      'cancelled',
      2,
      { amount: 20000, applied: 20000, due: 0, status: 'paid' },
    ],
    [
      'no-show',
      basis({ deposit_paid_cents: 2500 }),
      'no_show',
      -1,
      { amount: 10000, applied: 2500, due: 7500, status: 'due' },
    ],
    ['no policy', basis({ cancellation_policy: null }), 'cancelled', 1, null],
    ['completion', basis(), 'completed', -1, null],
  ] as const)('%s', (_name, b, to, hours, expected) => {
    const fee = assessFee(b, to, hoursBefore(hours));
    if (expected === null) return expect(fee).toBeNull();
    expect(fee).toMatchObject({
      kind: to === 'no_show' ? 'no_show' : 'late_cancel',
      amount_cents: expected.amount,
      deposit_applied_cents: expected.applied,
      due_cents: expected.due,
      status: expected.status,
      assessed_at: hoursBefore(hours).toISOString(),
    });
  });

  it('a waived cancel records the fee as waived with nothing due or applied', () => {
    const fee = assessFee(basis({ deposit_paid_cents: 5000 }), 'cancelled', hoursBefore(1), { reason: 'sick' });
    expect(fee).toMatchObject({
      amount_cents: 20000,
      deposit_applied_cents: 0,
      due_cents: 0,
      status: 'waived',
      waive_reason: 'sick',
    });
  });

  it('a zero fee is no fee', () => {
    const free = basis({ cancellation_policy: { ...policy, late_cancel_fee: { type: 'percent', value: 0 } } });
    expect(assessFee(free, 'cancelled', hoursBefore(1))).toBeNull();
  });
});

describe('payFees and waiveFee', () => {
  const due = [assessFee(basis(), 'cancelled', hoursBefore(1))!];
  it('part payments reach paid at 0; nothing due or overpaying is refused', () => {
    const once = payFees(due, 5000)!;
    expect(once[0]).toMatchObject({ due_cents: 15000, status: 'due' });
    const twice = payFees(once, 15000)!;
    expect(twice[0]).toMatchObject({ due_cents: 0, status: 'paid' });
    expect(payFees(twice, 1)).toBeNull();
    expect(payFees(once, 15001)).toBeNull();
    expect(payFees([], 1)).toBeNull();
  });
  it('waives a due fee only', () => {
    const waived = waiveFee(due, 'late_cancel', '2026-12-10T00:00:00.000Z', 'goodwill')!;
    expect(waived[0]).toMatchObject({ status: 'waived', due_cents: 0, waive_reason: 'goodwill' });
    expect(waiveFee(waived, 'late_cancel', '2026-12-10T00:00:00.000Z', null)).toBeNull();
    expect(waiveFee(due, 'no_show', '2026-12-10T00:00:00.000Z', null)).toBeNull();
  });
});
