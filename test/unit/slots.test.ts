import { describe, it, expect } from 'vitest';
import type { WorkingHours } from '../../lib/domain/availability';
import { bucketIdsForPeriods } from '../../lib/domain/claims';
import {
  availableSlots,
  candidateCount,
  groupSlotsByDate,
  slotsInRange,
  type SlotsInput,
} from '../../lib/domain/slots';
import { datesBetween } from '../../lib/domain/time';

const NY = 'America/New_York';
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const EVERY_DAY: WorkingHours = Object.fromEntries(DAYS.map((d) => [d, [{ start: '09:00', end: '17:00' }]]));
const LONG_AGO = '2000-01-01T00:00:00Z';

function slotsFor(overrides: Partial<SlotsInput> = {}) {
  return availableSlots({
    date: '2026-11-23',
    zone: NY,
    durationMinutes: 60,
    workingHours: EVERY_DAY,
    timeOff: [],
    providerBusy: [],
    now: LONG_AGO,
    ...overrides,
  });
}
const starts = (overrides: Partial<SlotsInput> = {}) => slotsFor(overrides).map((s) => s.slot_start);

describe('availableSlots', () => {
  it('steps every interval from the period start while the duration fits', () => {
    const slots = slotsFor({ durationMinutes: 60, intervalMinutes: 15 });
    // 09:00..16:00 local in 15-minute steps: 29 starts.
    expect(slots).toHaveLength(29);
    expect(slots[0]).toEqual({ slot_start: '2026-11-23T14:00:00.000Z', slot_end: '2026-11-23T15:00:00.000Z' });
    expect(slots.at(-1)).toEqual({ slot_start: '2026-11-23T21:00:00.000Z', slot_end: '2026-11-23T22:00:00.000Z' });
  });

  it('defaults the interval to 15 minutes', () => {
    expect(starts().slice(0, 3)).toEqual([
      '2026-11-23T14:00:00.000Z',
      '2026-11-23T14:15:00.000Z',
      '2026-11-23T14:30:00.000Z',
    ]);
  });

  it('begins at 09:00 local on DST change days', () => {
    const spring = slotsFor({ date: '2026-03-08' });
    expect(spring[0]).toEqual({ slot_start: '2026-03-08T13:00:00.000Z', slot_end: '2026-03-08T14:00:00.000Z' });
    expect(spring.at(-1)!.slot_end).toBe('2026-03-08T21:00:00.000Z');
    const autumn = slotsFor({ date: '2026-11-01' });
    expect(autumn[0]).toEqual({ slot_start: '2026-11-01T14:00:00.000Z', slot_end: '2026-11-01T15:00:00.000Z' });
    expect(autumn.at(-1)!.slot_end).toBe('2026-11-01T22:00:00.000Z');
    expect(spring).toHaveLength(29);
    expect(autumn).toHaveLength(29);
  });

  it('removes slots overlapping a booking and keeps the back-to-back ones', () => {
    const s = starts({
      intervalMinutes: 60,
      providerBusy: [{ appointment_id: 'a', start: '2026-11-23T16:00:00Z', end: '2026-11-23T17:00:00Z' }],
    });
    // 11:00-12:00 local is booked: 10:00 ends as it starts and 12:00 starts as it ends.
    expect(s).toEqual([
      '2026-11-23T14:00:00.000Z',
      '2026-11-23T15:00:00.000Z',
      '2026-11-23T17:00:00.000Z',
      '2026-11-23T18:00:00.000Z',
      '2026-11-23T19:00:00.000Z',
      '2026-11-23T20:00:00.000Z',
      '2026-11-23T21:00:00.000Z',
    ]);
  });

  it('removes every start whose duration would run into a booking', () => {
    const s = starts({
      durationMinutes: 30,
      providerBusy: [{ appointment_id: 'a', start: '2026-11-23T15:00:00Z', end: '2026-11-23T15:30:00Z' }],
    });
    expect(s).toContain('2026-11-23T14:30:00.000Z');
    expect(s).not.toContain('2026-11-23T14:45:00.000Z');
    expect(s).not.toContain('2026-11-23T15:15:00.000Z');
    expect(s).toContain('2026-11-23T15:30:00.000Z');
  });

  it('honours room and equipment bookings and time off', () => {
    const busy = (id: string, start: string, end: string) => [{ appointment_id: id, start, end }];
    const s = starts({
      intervalMinutes: 60,
      roomBusy: busy('r', '2026-11-23T14:00:00Z', '2026-11-23T15:00:00Z'),
      equipmentBusy: busy('e', '2026-11-23T15:00:00Z', '2026-11-23T16:00:00Z'),
      timeOff: [{ start: '2026-11-23T17:00:00Z', end: '2026-11-23T22:00:00Z' }],
    });
    expect(s).toEqual(['2026-11-23T16:00:00.000Z']);
  });

  it('leaves out slots starting before now, keeping one starting exactly now', () => {
    const s = starts({ intervalMinutes: 60, now: '2026-11-23T19:00:00Z' });
    expect(s).toEqual(['2026-11-23T19:00:00.000Z', '2026-11-23T20:00:00.000Z', '2026-11-23T21:00:00.000Z']);
    expect(starts({ now: '2026-11-24T00:00:00Z' })).toEqual([]);
  });

  it('steps each period from its own start, sorted', () => {
    const split: WorkingHours = {
      mon: [
        { start: '13:10', end: '15:10' },
        { start: '09:00', end: '11:00' },
      ],
    };
    expect(starts({ workingHours: split, intervalMinutes: 60 })).toEqual([
      '2026-11-23T14:00:00.000Z',
      '2026-11-23T15:00:00.000Z',
      '2026-11-23T18:10:00.000Z',
      '2026-11-23T19:10:00.000Z',
    ]);
  });

  it('is empty on a day off or when the duration exceeds the period', () => {
    expect(slotsFor({ workingHours: { tue: [{ start: '09:00', end: '17:00' }] } })).toEqual([]);
    expect(slotsFor({ durationMinutes: 8 * 60 + 15 })).toEqual([]);
  });

  it('rejects a non-positive or fractional duration or interval', () => {
    expect(() => slotsFor({ durationMinutes: 0 })).toThrow(RangeError);
    expect(() => slotsFor({ intervalMinutes: 0 })).toThrow(RangeError);
    expect(() => slotsFor({ intervalMinutes: 7.5 })).toThrow(RangeError);
  });
});

describe('availableSlots agrees with the booking check', () => {
  it('every candidate start is a slot exactly when checkProviderAvailability says it is free, buffers and time off included', async () => {
    const fc = (await import('fast-check')).default;
    const { checkProviderAvailability } = await import('../../lib/domain/availability');
    const zone = 'America/New_York';
    const date = '2027-03-14';
    const busy = fc.array(
      fc.record({ startMinute: fc.integer({ min: 0, max: 24 * 60 }), length: fc.integer({ min: 5, max: 240 }) }),
      { maxLength: 6 },
    );
    // Buffers reach outside the hours and into time off freely; only the held time meets bookings.
    const buffer = fc.constantFrom(0, 5, 15, 30, 240);
    fc.assert(
      fc.property(
        busy,
        fc.constantFrom(15, 30, 45, 60, 90),
        buffer,
        buffer,
        busy,
        (blocks, duration, before, after, off) => {
          const base = Date.parse('2027-03-14T05:00:00Z');
          const intervalOf = (b: { startMinute: number; length: number }) => ({
            start: new Date(base + b.startMinute * 60_000).toISOString(),
            end: new Date(base + (b.startMinute + b.length) * 60_000).toISOString(),
          });
          const providerBusy = blocks.map((b, i) => ({ appointment_id: `a${i}`, ...intervalOf(b) }));
          const timeOff = off.slice(0, 2).map(intervalOf);
          const buffers = { buffer_before_minutes: before, buffer_after_minutes: after };
          const workingHours = {
            sun: [
              { start: '09:00', end: '12:00' },
              { start: '13:00', end: '17:30' },
            ],
          };
          const input = {
            date,
            zone,
            durationMinutes: duration,
            intervalMinutes: 15,
            workingHours,
            timeOff,
            providerBusy,
            buffers,
            now: '2027-01-01T00:00:00Z',
          };
          const slots = new Set(availableSlots(input).map((s) => s.slot_start));
          for (let m = 0; m < 24 * 60; m += 15) {
            const start = new Date(base + m * 60_000).toISOString();
            const end = new Date(base + (m + duration) * 60_000).toISOString();
            const free = checkProviderAvailability({
              start,
              end,
              zone,
              workingHours,
              timeOff,
              providerBusy,
              buffers,
            }).isAvailable;
            const onGrid = slots.has(start);
            if (onGrid) expect(free).toBe(true);
            if (free) expect(onGrid).toBe(true);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('slotsInRange: the one rule, over any range of local dates', () => {
  const rule = {
    zone: NY,
    durationMinutes: 45,
    intervalMinutes: 30,
    workingHours: {
      ...EVERY_DAY,
      sat: [{ start: '12:00', end: '15:00' }],
      sun: [
        { start: '01:00', end: '04:00' },
        { start: '09:00', end: '17:00' },
      ],
    },
    timeOff: [{ start: '2027-03-12T20:00:00Z', end: '2027-03-13T15:00:00Z' }],
    providerBusy: [
      { appointment_id: 'a', start: '2027-03-14T14:00:00Z', end: '2027-03-14T15:00:00Z' },
      // Across a local midnight: blocks the end of one day and the start of the next.
      { appointment_id: 'b', start: '2027-03-11T03:00:00Z', end: '2027-03-11T05:00:00Z' },
    ],
    roomBusy: [{ appointment_id: 'r', start: '2027-03-15T13:00:00Z', end: '2027-03-15T14:30:00Z' }],
    now: '2027-03-10T16:10:00Z',
  };

  it('is the per-day rule day after day, across the spring-forward change (2027-03-14)', () => {
    const from = '2027-03-09';
    const to = '2027-03-16';
    const perDay = datesBetween(from, to).flatMap((date) => availableSlots({ ...rule, date }));
    const ranged = slotsInRange({ ...rule, from, to });
    expect(ranged).toEqual(perDay);
    expect(ranged.length).toBeGreaterThan(40);
    // Past starts are gone: nothing before now, on 2027-03-09 or earlier on 2027-03-10.
    expect(ranged[0]!.slot_start >= rule.now).toBe(true);
    // 01:00-04:00 on the spring-forward Sunday is two hours long (02:00-03:00 does not exist).
    expect(ranged.filter((s) => s.slot_start.startsWith('2027-03-14T0')).map((s) => s.slot_start)).toEqual([
      '2027-03-14T06:00:00.000Z',
      '2027-03-14T06:30:00.000Z',
      '2027-03-14T07:00:00.000Z',
    ]);
  });

  it('offers nothing when a resource is inactive, and validates steps as before', () => {
    expect(slotsInRange({ ...rule, from: '2027-03-15', to: '2027-03-16', inactive: true })).toEqual([]);
    expect(() => slotsInRange({ ...rule, from: '2027-03-15', to: '2027-03-15', intervalMinutes: 0 })).toThrow(
      RangeError,
    );
    expect(slotsInRange({ ...rule, from: '2027-03-16', to: '2027-03-15' })).toEqual([]);
  });

  it('groups by local date in the zone asked for; the instants do not change', () => {
    const slots = slotsInRange({ ...rule, from: '2027-03-15', to: '2027-03-16' });
    const home = groupSlotsByDate(slots, NY);
    expect(home.map((g) => g.date)).toEqual(['2027-03-15', '2027-03-16']);
    const tokyo = groupSlotsByDate(slots, 'Asia/Tokyo');
    // 09:00-17:00 New York (UTC-4) is 22:00-06:00 the next day in Tokyo (UTC+9).
    expect(tokyo.map((g) => g.date)).toEqual(['2027-03-15', '2027-03-16', '2027-03-17']);
    expect(tokyo.flatMap((g) => g.slots)).toEqual(slots);
    expect(groupSlotsByDate([], NY)).toEqual([]);
  });

  it('counts the candidate starts before any booking is read', () => {
    expect(candidateCount([{ start: '2027-03-15T13:00:00Z', end: '2027-03-15T21:00:00Z' }], 60, 15)).toBe(29);
    expect(candidateCount([{ start: '2027-03-15T13:00:00Z', end: '2027-03-15T13:30:00Z' }], 60, 15)).toBe(0);
  });
});

describe('bucketIdsForPeriods', () => {
  it('reads the hours the periods touch, from notBefore on, once each and sorted', () => {
    const periods = [
      { start: '2027-03-15T13:30:00Z', end: '2027-03-15T15:00:00Z' },
      { start: '2027-03-15T14:15:00Z', end: '2027-03-15T16:01:00Z' },
      { start: '2027-03-14T13:00:00Z', end: '2027-03-14T14:00:00Z' },
    ];
    expect(bucketIdsForPeriods(periods)).toEqual([
      '2027-03-14T13',
      '2027-03-15T13',
      '2027-03-15T14',
      '2027-03-15T15',
      '2027-03-15T16',
    ]);
    expect(bucketIdsForPeriods(periods, '2027-03-15T14:59:00Z')).toEqual([
      '2027-03-15T14',
      '2027-03-15T15',
      '2027-03-15T16',
    ]);
    expect(bucketIdsForPeriods(periods, '2027-03-16T00:00:00Z')).toEqual([]);
  });
});
