import { describe, expect, it } from 'vitest';
import { occurrenceStarts } from '../../lib/domain/series';

/** A series' occurrences keep their practice-local time across DST changes (docs/decisions/0025). */
describe('occurrenceStarts', () => {
  it('keeps 10:00 New York time across the spring and autumn changes (the UTC instant moves by the offset)', () => {
    expect(occurrenceStarts('2027-03-07T10:00:00-05:00', 3, 7, 'America/New_York')).toEqual([
      '2027-03-07T15:00:00.000Z',
      '2027-03-14T14:00:00.000Z',
      '2027-03-21T14:00:00.000Z',
    ]);
    expect(occurrenceStarts('2027-10-31T10:00:00-04:00', 2, 7, 'America/New_York')).toEqual([
      '2027-10-31T14:00:00.000Z',
      '2027-11-07T15:00:00.000Z',
    ]);
  });

  it('a local time skipped by the spring change moves forward by the gap; every_days counts local days', () => {
    expect(occurrenceStarts('2027-03-13T02:30:00-05:00', 2, 1, 'America/New_York')[1]).toBe('2027-03-14T07:30:00.000Z');
    expect(occurrenceStarts('2026-12-01T09:15:00Z', 3, 30, 'UTC')).toEqual([
      '2026-12-01T09:15:00.000Z',
      '2026-12-31T09:15:00.000Z',
      '2027-01-30T09:15:00.000Z',
    ]);
  });
});
