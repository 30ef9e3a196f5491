import { describe, expect, it } from 'vitest';
import { utilization, workingMinutes } from '../../lib/domain/utilization';
import { addDays, nextDstChange, NY } from '../fixtures/dates';

const ALL_DAY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]),
);
const NINE_TO_FIVE = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '09:00', end: '17:00' }]]),
);

describe('working minutes (DST-correct)', () => {
  it('a whole-day schedule works 23 h on the spring-forward day and 25 h on the fall-back day', () => {
    const spring = nextDstChange('spring');
    const autumn = nextDstChange('autumn');
    expect(workingMinutes({ from: spring, to: spring, zone: NY, workingHours: ALL_DAY, timeOff: [] })).toBe(23 * 60);
    expect(workingMinutes({ from: autumn, to: autumn, zone: NY, workingHours: ALL_DAY, timeOff: [] })).toBe(25 * 60);
    expect(
      workingMinutes({
        from: addDays(spring, -1),
        to: addDays(spring, 1),
        zone: NY,
        workingHours: ALL_DAY,
        timeOff: [],
      }),
    ).toBe(71 * 60);
  });

  it('a 09:00-17:00 day is 8 h whatever the offset, less time off (clipped to the period)', () => {
    const spring = nextDstChange('spring');
    expect(workingMinutes({ from: spring, to: spring, zone: NY, workingHours: NINE_TO_FIVE, timeOff: [] })).toBe(480);
    const before = addDays(spring, -1);
    // Off from 16:00 (EST, -05:00) the day before until 10:30 (EDT, -04:00) on the change day.
    const timeOff = [{ start: `${before}T21:00:00.000Z`, end: `${spring}T14:30:00.000Z` }];
    expect(workingMinutes({ from: before, to: spring, zone: NY, workingHours: NINE_TO_FIVE, timeOff })).toBe(420 + 390);
  });

  it('utilization is booked / working to 4 decimals, null without working time', () => {
    expect(utilization(100, 300)).toBe(0.3333);
    expect(utilization(10, 0)).toBeNull();
  });
});
