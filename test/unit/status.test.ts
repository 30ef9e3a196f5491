import { describe, it, expect } from 'vitest';
import { ACTIVE_STATUSES, APPOINTMENT_STATUSES, canTransition, isActive, isMovable } from '../../lib/domain/status';

// the API reference's appointments section table, written out independently of the implementation.
const ALLOWED = new Set([
  'scheduled>confirmed',
  'confirmed>checked_in',
  'checked_in>in_progress',
  'in_progress>completed',
  'scheduled>cancelled',
  'confirmed>cancelled',
  'in_progress>cancelled',
  'checked_in>no_show',
]);

describe('canTransition', () => {
  const pairs = APPOINTMENT_STATUSES.flatMap((from) => APPOINTMENT_STATUSES.map((to) => [from, to] as const));

  it('covers all 49 pairs', () => {
    expect(pairs).toHaveLength(49);
  });

  it.each(pairs)('%s -> %s follows the contract table', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
  });

  it('allows exactly 8 moves and none out of a final status', () => {
    expect(pairs.filter(([f, t]) => canTransition(f, t))).toHaveLength(8);
    for (const final of ['completed', 'cancelled', 'no_show'] as const) {
      expect(APPOINTMENT_STATUSES.some((to) => canTransition(final, to))).toBe(false);
    }
  });
});

describe('isActive / isMovable', () => {
  it('active statuses are the ones that hold time', () => {
    expect([...ACTIVE_STATUSES]).toEqual(['scheduled', 'confirmed', 'checked_in', 'in_progress']);
    expect(APPOINTMENT_STATUSES.filter(isActive)).toEqual([...ACTIVE_STATUSES]);
  });

  it('only scheduled and confirmed can be moved', () => {
    expect(APPOINTMENT_STATUSES.filter(isMovable)).toEqual(['scheduled', 'confirmed']);
  });
});
