import { describe, expect, it } from 'vitest';
import { checkProviderAvailability } from '../../lib/domain/availability';
import { busyFromBuckets, type BucketEntry } from '../../lib/domain/claims';
import { expiredEntryIds, holdRefusal, holdStatus, isLiveEntry, liveHolds } from '../../lib/domain/holds';

const NOW = Date.parse('2026-12-01T15:00:00.000Z');
const appointment: BucketEntry = { appointment_id: 'a', start: '2026-12-01T15:00:00Z', end: '2026-12-01T16:00:00Z' };
const heldUntil = (id: string, expires_at: string): BucketEntry => ({
  appointment_id: id,
  start: '2026-12-01T16:00:00Z',
  end: '2026-12-01T17:00:00Z',
  hold: true,
  expires_at,
});

describe('a hold expires at its expires_at, with no sweep', () => {
  it('an entry is live until its expires_at, from that instant on not; an appointment always', () => {
    expect(isLiveEntry(appointment, NOW)).toBe(true);
    expect(isLiveEntry(heldUntil('h', '2026-12-01T15:00:00.001Z'), NOW)).toBe(true);
    expect(isLiveEntry(heldUntil('h', '2026-12-01T15:00:00.000Z'), NOW)).toBe(false);
  });

  it('busy time leaves expired holds out and marks live ones as holds', () => {
    const live = heldUntil('live', '2026-12-01T15:10:00Z');
    const gone = heldUntil('gone', '2026-12-01T14:59:59Z');
    expect(busyFromBuckets([[appointment, live, gone]], NOW).map((busy) => [busy.appointment_id, busy.hold])).toEqual([
      ['a', undefined],
      ['live', true],
    ]);
    // Without a time, every entry is busy (as before holds).
    expect(busyFromBuckets([[appointment, gone]])).toHaveLength(2);
  });

  it('a write prunes the expired entries of the buckets it writes, only those', () => {
    expect(
      expiredEntryIds(
        [appointment, heldUntil('live', '2026-12-01T15:10:00Z'), heldUntil('gone', '2026-12-01T15:00:00Z')],
        NOW,
      ),
    ).toEqual(['gone']);
  });

  it('an overlap with a live hold is a conflict that says it is a hold', () => {
    const { conflicts } = checkProviderAvailability({
      start: '2026-12-01T16:30:00Z',
      end: '2026-12-01T17:30:00Z',
      zone: 'UTC',
      workingHours: { tue: [{ start: '09:00', end: '18:00' }] },
      timeOff: [],
      providerBusy: busyFromBuckets([[heldUntil('h', '2026-12-01T15:10:00Z')]], NOW),
    });
    expect(conflicts).toEqual([expect.objectContaining({ type: 'provider_booked', appointment_id: 'h', hold: true })]);
  });
});

describe('hold status and refusals', () => {
  const active = { status: 'active' as const, expires_at: '2026-12-01T15:00:00Z' };
  it('an active hold past expires_at reads expired; confirmed and released stay what they are', () => {
    expect(holdStatus(active, NOW - 1)).toBe('active');
    expect(holdStatus(active, NOW)).toBe('expired');
    expect(holdStatus({ ...active, status: 'confirmed' }, NOW)).toBe('confirmed');
    expect(holdStatus({ ...active, status: 'released' }, NOW)).toBe('released');
  });

  it('a confirm is refused HOLD_EXPIRED when expired, HOLD_NOT_ACTIVE when released or confirmed', () => {
    expect(holdRefusal('active')).toBeNull();
    expect(holdRefusal('expired')).toBe('HOLD_EXPIRED');
    expect(holdRefusal('released')).toBe('HOLD_NOT_ACTIVE');
    expect(holdRefusal('confirmed')).toBe('HOLD_NOT_ACTIVE');
  });

  it('the per-IP ledger counts only the holds still active', () => {
    expect(liveHolds({ a: '2026-12-01T15:00:00Z', b: '2026-12-01T15:05:00Z' }, NOW)).toEqual({
      b: '2026-12-01T15:05:00Z',
    });
  });
});
