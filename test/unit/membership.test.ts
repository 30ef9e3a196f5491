import { describe, expect, it } from 'vitest';
import { endsGoverning, membershipEffect, membershipOnSale, successorOf } from '../../lib/domain/membership';

/** The membership rules of section 12's "Clients" (lib/domain/membership.ts). */

const plan = (id: string, over: object = {}) => ({
  id,
  kind: 'membership' as const,
  name: `Plan ${id}`,
  status: 'active' as const,
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});
const governedBy = (id: string | null) => ({ membership_plan_id: id });

describe('membership rules', () => {
  it('a membership sale governs at once; a package never touches the fields', () => {
    expect(membershipOnSale(plan('a'))).toEqual({
      membership_status: 'active',
      membership_tier: 'Plan a',
      membership_plan_id: 'a',
    });
    expect(membershipOnSale(plan('p', { kind: 'package' }))).toBeNull();
    expect(membershipEffect(plan('p', { kind: 'package' }), 'paused', governedBy('p'), null)).toEqual({ kind: 'none' });
  });

  it('the governing plan carries its status; another plan governing leaves the client to a check', () => {
    expect(membershipEffect(plan('a'), 'paused', governedBy('a'), null)).toEqual({
      kind: 'set',
      membership: { membership_status: 'paused', membership_tier: 'Plan a', membership_plan_id: 'a' },
      successor: null,
    });
    expect(membershipEffect(plan('a'), 'paused', governedBy('b'), null)).toEqual({ kind: 'elsewhere' });
    expect(membershipEffect(plan('a'), 'paused', governedBy(null), null)).toEqual({ kind: 'elsewhere' });
    // No move (a term-end cancel only flags) and no live client: nothing.
    expect(membershipEffect(plan('a'), undefined, governedBy('a'), null)).toEqual({ kind: 'none' });
    expect(membershipEffect(plan('a'), 'active', governedBy('a'), null)).toEqual({ kind: 'none' });
    expect(membershipEffect(plan('a'), 'cancelled', null, null)).toEqual({ kind: 'none' });
  });

  it('when the governing plan is cancelled or expired, a successor takes over, else cancelled and writable', () => {
    for (const ending of ['cancelled', 'expired'] as const) {
      expect(endsGoverning(plan('a'), ending, governedBy('a'))).toBe(true);
      expect(membershipEffect(plan('a'), ending, governedBy('a'), null)).toEqual({
        kind: 'set',
        membership: { membership_status: 'cancelled', membership_tier: 'Plan a', membership_plan_id: null },
        successor: null,
      });
      const next = plan('b', { status: 'paused' });
      expect(membershipEffect(plan('a'), ending, governedBy('a'), next)).toEqual({
        kind: 'set',
        membership: { membership_status: 'paused', membership_tier: 'Plan b', membership_plan_id: 'b' },
        successor: next,
      });
    }
    expect(endsGoverning(plan('a'), 'paused', governedBy('a'))).toBe(false);
    expect(endsGoverning(plan('a'), 'cancelled', governedBy('b'))).toBe(false);
  });

  it('the successor is the most recently sold other active or paused membership', () => {
    const plans = [
      plan('a'),
      plan('b', { created_at: '2026-11-02T10:00:00.000Z', status: 'paused' }),
      plan('c', { created_at: '2026-11-03T10:00:00.000Z', status: 'cancelled' }),
      plan('d', { created_at: '2026-11-04T10:00:00.000Z', kind: 'package' }),
      plan('e', { created_at: '2026-11-05T10:00:00.000Z' }),
    ];
    expect(successorOf(plans, 'e')?.id).toBe('b');
    expect(successorOf(plans, 'b')?.id).toBe('e');
    expect(successorOf([plan('a'), plan('z')], 'x')?.id).toBe('z');
    expect(successorOf([plan('a')], 'a')).toBeNull();
  });
});
