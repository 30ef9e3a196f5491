import { describe, expect, it } from 'vitest';
import type { AppointmentRecord as Appointment } from '../../lib/domain/records';
import { bookingViolations, stockViolations, type ClaimBucket } from '../fixtures/invariants';
import { futureWeekday, utc } from '../fixtures/dates';

const DAY = futureWeekday('tue', 2);
const appt = (id: string, from: string, to: string, over: Partial<Appointment> = {}) =>
  ({
    id,
    provider_id: 'p1',
    room_id: null,
    equipment_id: null,
    scheduled_at: utc(DAY, from),
    end_at: utc(DAY, to),
    status: 'scheduled',
    ...over,
  }) as Appointment;
const bucket = (a: Appointment, resource: ClaimBucket['resource'] = 'PROVIDER', resourceId = 'p1'): ClaimBucket => ({
  resource,
  resourceId,
  hour: a.scheduled_at.slice(0, 13),
  entries: { [a.id]: { start: a.scheduled_at, end: a.end_at } },
});

describe('the invariant checkers catch what they promise', () => {
  it('bookings: clean data passes; an overlap, an orphan and a missing claim are each reported', () => {
    const a = appt('a', '10:00', '10:30');
    const b = appt('b', '11:00', '11:30');
    expect(bookingViolations([a, b], [bucket(a), bucket(b)])).toEqual([]);
    const clash = appt('c', '10:15', '10:45', { room_id: 'r1' });
    expect(
      bookingViolations([a, b, clash], [bucket(a), bucket(b), bucket(clash), bucket(clash, 'ROOM', 'r1')]),
    ).toEqual([expect.stringMatching(/^overlap on PROVIDER p1: a .* and c/)]);
    const cancelled = { ...b, status: 'cancelled' } as Appointment;
    expect(bookingViolations([a, cancelled], [bucket(a), bucket(b)])).toEqual([
      expect.stringMatching(/^orphan claim PROVIDER\|p1\|.*\|b\|/),
    ]);
    expect(bookingViolations([a, b], [bucket(a)])).toEqual([
      expect.stringMatching(/^missing claim PROVIDER\|p1\|.*\|b\|/),
    ]);
  });

  it('stock: a chained ledger passes; negative stock and a repeated quantity_after are reported', () => {
    const product = { id: 'x', quantity_on_hand: 1, low_stock_threshold: 1, headroom: 0 };
    expect(
      stockViolations(
        [product],
        [
          { product_id: 'x', delta: -1, quantity_after: 2 },
          { product_id: 'x', delta: -1, quantity_after: 1 },
        ],
      ),
    ).toEqual([]);
    expect(stockViolations([{ ...product, quantity_on_hand: -1, headroom: -2 }], [])).toEqual([
      expect.stringMatching(/^negative stock/),
    ]);
    expect(
      stockViolations(
        [product],
        [
          { product_id: 'x', delta: -1, quantity_after: 1 },
          { product_id: 'x', delta: -1, quantity_after: 1 },
        ],
      ),
    ).toEqual([expect.stringMatching(/does not chain/)]);
  });
});
