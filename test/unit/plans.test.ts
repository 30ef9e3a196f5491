import { describe, expect, it } from 'vitest';
import {
  addCalendarMonths,
  applyStep,
  balanceStep,
  bookingProblem,
  emptyBalance,
  nextPlanStatus,
  saleDates,
  settlementOf,
  termsProblem,
  unitSteps,
  LEDGER_KINDS,
  type Balance,
} from '../../lib/domain/plans';

const holds = (b: Balance) => b.granted === b.reserved + b.used + b.expired + b.remaining;

describe('plan rules', () => {
  it('every ledger step keeps granted = reserved + used + expired + remaining, and the floor holds', () => {
    let balance: Balance = applyStep(emptyBalance('s'), balanceStep('grant', 3))!;
    for (const kind of ['reserve', 'use', 'reserve', 'release', 'expire', 'adjust'] as const) {
      const next = applyStep(balance, balanceStep(kind, kind === 'adjust' ? -1 : 1));
      expect(next, kind).not.toBeNull();
      balance = next!;
      expect(holds(balance), kind).toBe(true);
    }
    expect(balance).toMatchObject({ granted: 2, reserved: 0, used: 1, expired: 1, remaining: 0 });
    for (const kind of LEDGER_KINDS.filter((k) => k !== 'grant'))
      expect(applyStep(balance, balanceStep(kind, kind === 'adjust' ? -1 : 1)), kind).toBeNull();
  });

  it('terms follow the calendar: month ends clamp, packages expire valid_days on', () => {
    expect(addCalendarMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addCalendarMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addCalendarMonths('2026-11-15', 3)).toBe('2027-02-15');
    expect(saleDates({ kind: 'membership', term_months: 1, valid_days: null }, '2026-12-01')).toEqual({
      current_term: { starts_on: '2026-12-01', ends_on: '2026-12-31' },
      expires_on: null,
    });
    expect(saleDates({ kind: 'package', term_months: null, valid_days: 90 }, '2026-12-01').expires_on).toBe(
      '2027-03-01',
    );
    expect(saleDates({ kind: 'package', term_months: null, valid_days: null }, '2026-12-01').expires_on).toBeNull();
  });

  it('terms that do not fit the kind, transitions and booking checks', () => {
    expect(termsProblem({ kind: 'membership' })?.[0]).toBe('term_months');
    expect(termsProblem({ kind: 'membership', term_months: 1, valid_days: 3 })?.[0]).toBe('valid_days');
    expect(termsProblem({ kind: 'package', rollover: true })?.[0]).toBe('rollover');
    expect(termsProblem({ kind: 'package', valid_days: 30 })).toBeNull();
    expect(nextPlanStatus('active', 'pause')).toBe('paused');
    expect(nextPlanStatus('paused', 'resume')).toBe('active');
    expect(nextPlanStatus('paused', 'cancel')).toBe('cancelled');
    expect(nextPlanStatus('expired', 'cancel')).toBeNull();
    expect(nextPlanStatus('active', 'resume')).toBeNull();
    const plan = { client_id: 'c', status: 'paused' as const, service_ids: ['s'] };
    expect(bookingProblem(plan, { client_id: 'x', service_id: 's' })).toBe('PLAN_NOT_APPLICABLE');
    expect(bookingProblem(plan, { client_id: 'c', service_id: 't' })).toBe('PLAN_NOT_APPLICABLE');
    expect(bookingProblem(plan, { client_id: 'c', service_id: 's' })).toBe('PLAN_NOT_ACTIVE');
    expect(bookingProblem({ ...plan, status: 'active' }, { client_id: 'c', service_id: 's' })).toBeNull();
  });
});

describe('settling a plan-booked appointment', () => {
  it('completion and no-show use, a late cancel uses unless waived, the rest release', () => {
    expect(settlementOf('completed', false, false)).toBe('use');
    expect(settlementOf('no_show', false, false)).toBe('use');
    expect(settlementOf('no_show', false, true)).toBe('release');
    expect(settlementOf('cancelled', true, false)).toBe('use');
    expect(settlementOf('cancelled', true, true)).toBe('release');
    expect(settlementOf('cancelled', false, false)).toBe('release');
  });
});

describe('unitSteps (one write reserving a unit per occurrence)', () => {
  it('answers the balance after each unit in order, and null when too few remain', () => {
    const balance = applyStep(emptyBalance('s'), balanceStep('grant', 3))!;
    expect(unitSteps(balance, 'reserve', 3)!.map((b) => [b.reserved, b.remaining])).toEqual([
      [1, 2],
      [2, 1],
      [3, 0],
    ]);
    expect(unitSteps(balance, 'reserve', 4)).toBeNull();
    expect(unitSteps(balance, 'reserve', 0)).toEqual([]);
  });
});
