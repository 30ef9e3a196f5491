import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { overlaps } from '../../lib/domain/availability';
import {
  bucketConflicts,
  bucketIdsFor,
  bucketIdsForRange,
  busyFromBuckets,
  withEntry,
  withoutEntry,
  type BucketEntry,
} from '../../lib/domain/claims';

const entry = (appointment_id: string, start: string, end: string): BucketEntry => ({ appointment_id, start, end });

describe('bucketIdsFor', () => {
  it('names the UTC hours an interval touches, end exclusive', () => {
    expect(bucketIdsFor('2026-11-23T10:00:00Z', '2026-11-23T11:00:00Z')).toEqual(['2026-11-23T10']);
    expect(bucketIdsFor('2026-11-23T10:30:00Z', '2026-11-23T11:00:01Z')).toEqual(['2026-11-23T10', '2026-11-23T11']);
    expect(bucketIdsFor('2026-11-23T23:45:00Z', '2026-11-24T00:15:00Z')).toEqual(['2026-11-23T23', '2026-11-24T00']);
  });

  it('reads offsets as instants', () => {
    expect(bucketIdsFor('2026-11-23T10:00:00-05:00', '2026-11-23T10:30:00-05:00')).toEqual(['2026-11-23T15']);
  });

  it('allows a held time up to 8 hours plus two 4-hour buffers (17 buckets) and no more', () => {
    expect(bucketIdsFor('2026-11-23T05:30:00Z', '2026-11-23T21:30:00Z')).toHaveLength(17);
    expect(() => bucketIdsFor('2026-11-23T05:30:00Z', '2026-11-23T21:31:00Z')).toThrow(RangeError);
  });

  it('rejects empty, reversed and invalid intervals', () => {
    expect(() => bucketIdsFor('2026-11-23T10:00:00Z', '2026-11-23T10:00:00Z')).toThrow(RangeError);
    expect(() => bucketIdsFor('2026-11-23T11:00:00Z', '2026-11-23T10:00:00Z')).toThrow(RangeError);
    expect(() => bucketIdsFor('nope', '2026-11-23T10:00:00Z')).toThrow(RangeError);
  });

  // Hours in 2026, minutes within them: fine enough to hit boundaries often.
  const BASE = Date.parse('2026-01-01T00:00:00Z');
  const interval = fc
    .record({ startMin: fc.integer({ min: 0, max: 365 * 24 * 60 }), minutes: fc.integer({ min: 1, max: 8 * 60 }) })
    .map(({ startMin, minutes }) => ({
      start: new Date(BASE + startMin * 60_000).toISOString(),
      end: new Date(BASE + (startMin + minutes) * 60_000).toISOString(),
    }));

  it('covers exactly the hours the interval touches (property)', () => {
    fc.assert(
      fc.property(interval, ({ start, end }) => {
        const ids = bucketIdsFor(start, end);
        // An independent statement of "touches": the hour [h, h+1) overlaps [start, end).
        const expected: string[] = [];
        for (let h = Date.parse(start) - 3_600_000; h < Date.parse(end) + 3_600_000; h += 60_000) {
          if (h % 3_600_000 !== 0) continue;
          const hour = { start: new Date(h).toISOString(), end: new Date(h + 3_600_000).toISOString() };
          if (overlaps(hour, { start, end })) expected.push(hour.start.slice(0, 13));
        }
        expect(ids).toEqual(expected);
      }),
    );
  });

  it('gives two overlapping intervals a shared bucket, so their claims collide (property)', () => {
    fc.assert(
      fc.property(interval, interval, (a, b) => {
        const shared = bucketIdsFor(a.start, a.end).filter((id) => bucketIdsFor(b.start, b.end).includes(id));
        if (overlaps(a, b)) expect(shared.length).toBeGreaterThan(0);
        // And the shared bucket shows the conflict to whoever reads it.
        if (overlaps(a, b)) expect(bucketConflicts([entry('a', a.start, a.end)], b)).toHaveLength(1);
      }),
    );
  });
});

describe('bucketIdsForRange', () => {
  it('covers a 25-hour local day', () => {
    const ids = bucketIdsForRange('2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z');
    expect(ids).toHaveLength(25);
    expect(ids[0]).toBe('2026-11-01T04');
    expect(ids.at(-1)).toBe('2026-11-02T04');
  });

  it('allows 81 buckets (any 72-hour window widened by two 4-hour buffers) and no more', () => {
    expect(bucketIdsForRange('2026-11-01T00:00:00Z', '2026-11-04T08:00:00Z')).toHaveLength(80);
    expect(bucketIdsForRange('2026-11-01T00:30:00Z', '2026-11-04T08:30:00Z')).toHaveLength(81);
    expect(() => bucketIdsForRange('2026-11-01T00:00:00Z', '2026-11-04T09:00:01Z')).toThrow(RangeError);
    expect(() => bucketIdsForRange('2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z')).toThrow(RangeError);
  });
});

describe('bucket entries', () => {
  const a = entry('a', '2026-11-23T10:00:00.000Z', '2026-11-23T11:00:00.000Z');
  const b = entry('b', '2026-11-23T09:00:00.000Z', '2026-11-23T10:00:00.000Z');
  const c = entry('c', '2026-11-23T10:30:00.000Z', '2026-11-23T12:30:00.000Z');

  it('finds overlapping entries, not back-to-back ones, and skips the ignored appointment', () => {
    const wanted = { start: '2026-11-23T10:00:00Z', end: '2026-11-23T10:45:00Z' };
    expect(bucketConflicts([a, b, c], wanted)).toEqual([a, c]);
    expect(bucketConflicts([a, b, c], wanted, 'a')).toEqual([c]);
    expect(bucketConflicts([b], wanted)).toEqual([]);
  });

  it('adds an entry sorted by start and replaces one of the same appointment', () => {
    expect(withEntry([a, c], b)).toEqual([b, a, c]);
    const moved = entry('a', '2026-11-23T10:15:00.000Z', '2026-11-23T10:45:00.000Z');
    expect(withEntry([b, a, c], moved)).toEqual([b, moved, c]);
  });

  it('removes an appointment entry, leaving others alone', () => {
    expect(withoutEntry([b, a, c], 'a')).toEqual([b, c]);
    expect(withoutEntry([b], 'zzz')).toEqual([b]);
  });

  it('unions buckets into one busy interval per appointment', () => {
    expect(busyFromBuckets([[a, c], [c], [], [b]])).toEqual([b, a, c]);
    expect(busyFromBuckets([])).toEqual([]);
  });
});
