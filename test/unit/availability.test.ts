import { describe, it, expect } from 'vitest';
import {
  checkProviderAvailability,
  firstUnavailableCode,
  overlaps,
  workingPeriods,
  type AvailabilityInput,
  type WorkingHours,
} from '../../lib/domain/availability';

const NY = 'America/New_York';
const NINE_TO_FIVE = {
  mon: [{ start: '09:00', end: '17:00' }],
  tue: [{ start: '09:00', end: '17:00' }],
} satisfies WorkingHours;

// Monday 2026-11-23, New York is UTC-5: 09:00 local = 14:00Z, 17:00 local = 22:00Z.
function input(overrides: Partial<AvailabilityInput> = {}): AvailabilityInput {
  return {
    start: '2026-11-23T15:00:00Z',
    end: '2026-11-23T16:00:00Z',
    zone: NY,
    workingHours: NINE_TO_FIVE,
    timeOff: [],
    providerBusy: [],
    ...overrides,
  };
}

describe('overlaps', () => {
  const a = { start: '2026-11-23T15:00:00Z', end: '2026-11-23T16:00:00Z' };

  it('is half-open: back-to-back is not an overlap', () => {
    expect(overlaps(a, { start: '2026-11-23T16:00:00Z', end: '2026-11-23T17:00:00Z' })).toBe(false);
    expect(overlaps(a, { start: '2026-11-23T14:00:00Z', end: '2026-11-23T15:00:00Z' })).toBe(false);
  });

  it('detects partial, containing and contained overlaps, across offsets', () => {
    expect(overlaps(a, { start: '2026-11-23T15:59:00Z', end: '2026-11-23T17:00:00Z' })).toBe(true);
    expect(overlaps(a, { start: '2026-11-23T14:00:00Z', end: '2026-11-23T18:00:00Z' })).toBe(true);
    expect(overlaps(a, { start: '2026-11-23T15:10:00Z', end: '2026-11-23T15:20:00Z' })).toBe(true);
    expect(overlaps(a, { start: '2026-11-23T10:30:00-05:00', end: '2026-11-23T11:30:00-05:00' })).toBe(true);
  });
});

describe('workingPeriods', () => {
  it('places periods by local wall-clock time, also on DST change days', () => {
    const everyDay: WorkingHours = { sun: [{ start: '09:00', end: '17:00' }] };
    expect(workingPeriods('2026-03-08', everyDay, NY)).toEqual([
      { start: '2026-03-08T13:00:00.000Z', end: '2026-03-08T21:00:00.000Z' },
    ]);
    expect(workingPeriods('2026-11-01', everyDay, NY)).toEqual([
      { start: '2026-11-01T14:00:00.000Z', end: '2026-11-01T22:00:00.000Z' },
    ]);
  });

  it('is empty on a day off', () => {
    expect(workingPeriods('2026-11-25', NINE_TO_FIVE, NY)).toEqual([]);
  });

  it('sorts periods, merges touching ones and drops empty ones', () => {
    const split: WorkingHours = {
      mon: [
        { start: '13:00', end: '17:00' },
        { start: '09:00', end: '12:00' },
        { start: '18:00', end: '18:00' },
        { start: '17:00', end: '24:00' },
      ],
    };
    expect(workingPeriods('2026-11-23', split, NY)).toEqual([
      { start: '2026-11-23T14:00:00.000Z', end: '2026-11-23T17:00:00.000Z' },
      { start: '2026-11-23T18:00:00.000Z', end: '2026-11-24T05:00:00.000Z' },
    ]);
  });
});

describe('checkProviderAvailability', () => {
  it('is available inside working hours with nothing booked', () => {
    expect(checkProviderAvailability(input())).toEqual({ isAvailable: true, conflicts: [] });
  });

  it('accepts an interval filling a whole period exactly', () => {
    const r = checkProviderAvailability(input({ start: '2026-11-23T14:00:00Z', end: '2026-11-23T22:00:00Z' }));
    expect(r.isAvailable).toBe(true);
  });

  it('reports outside working hours: before, after, on a day off, and across a break', () => {
    const outside = (start: string, end: string, workingHours: WorkingHours = NINE_TO_FIVE) =>
      checkProviderAvailability(input({ start, end, workingHours })).conflicts;
    expect(outside('2026-11-23T13:30:00Z', '2026-11-23T14:30:00Z')).toEqual([{ type: 'outside_working_hours' }]);
    expect(outside('2026-11-23T21:30:00Z', '2026-11-23T22:30:00Z')).toEqual([{ type: 'outside_working_hours' }]);
    expect(outside('2026-11-25T15:00:00Z', '2026-11-25T16:00:00Z')).toEqual([{ type: 'outside_working_hours' }]);
    const withLunch: WorkingHours = {
      mon: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '17:00' },
      ],
    };
    expect(outside('2026-11-23T16:30:00Z', '2026-11-23T18:30:00Z', withLunch)).toEqual([
      { type: 'outside_working_hours' },
    ]);
  });

  it('uses the working hours of the local date of start, not the UTC date', () => {
    // Monday 23:00 local is Tuesday 04:00Z: Monday's evening hours apply.
    const evenings: WorkingHours = { mon: [{ start: '18:00', end: '24:00' }] };
    const r = checkProviderAvailability(
      input({ start: '2026-11-24T04:00:00Z', end: '2026-11-24T05:00:00Z', workingHours: evenings }),
    );
    expect(r.isAvailable).toBe(true);
  });

  it('reports time off overlapping the interval, not time off touching it', () => {
    const r = checkProviderAvailability(
      input({
        timeOff: [
          { start: '2026-11-23T15:30:00Z', end: '2026-11-23T20:00:00Z', reason: 'training' },
          { start: '2026-11-23T16:00:00Z', end: '2026-11-23T17:00:00Z' },
        ],
      }),
    );
    expect(r).toEqual({
      isAvailable: false,
      conflicts: [{ type: 'time_off', start: '2026-11-23T15:30:00Z', end: '2026-11-23T20:00:00Z' }],
    });
  });

  it('reports provider, room and equipment bookings, allowing back-to-back', () => {
    const r = checkProviderAvailability(
      input({
        providerBusy: [
          { appointment_id: 'p-before', start: '2026-11-23T14:00:00Z', end: '2026-11-23T15:00:00Z' },
          { appointment_id: 'p1', start: '2026-11-23T15:30:00Z', end: '2026-11-23T16:30:00Z' },
        ],
        roomBusy: [{ appointment_id: 'r1', start: '2026-11-23T14:30:00Z', end: '2026-11-23T15:30:00Z' }],
        equipmentBusy: [{ appointment_id: 'e-after', start: '2026-11-23T16:00:00Z', end: '2026-11-23T17:00:00Z' }],
      }),
    );
    expect(r.conflicts).toEqual([
      { type: 'provider_booked', appointment_id: 'p1', start: '2026-11-23T15:30:00Z', end: '2026-11-23T16:30:00Z' },
      { type: 'room_booked', appointment_id: 'r1', start: '2026-11-23T14:30:00Z', end: '2026-11-23T15:30:00Z' },
    ]);
    expect(r.isAvailable).toBe(false);
  });

  it('ignores the appointment being moved', () => {
    const own = { appointment_id: 'moving', start: '2026-11-23T15:00:00Z', end: '2026-11-23T16:00:00Z' };
    const r = checkProviderAvailability(
      input({
        start: '2026-11-23T15:30:00Z',
        end: '2026-11-23T16:30:00Z',
        providerBusy: [own],
        roomBusy: [own],
        equipmentBusy: [own],
        ignoreAppointmentId: 'moving',
      }),
    );
    expect(r).toEqual({ isAvailable: true, conflicts: [] });
  });

  it('rejects an empty or reversed interval', () => {
    expect(() => checkProviderAvailability(input({ end: '2026-11-23T15:00:00Z' }))).toThrow(RangeError);
    expect(() => checkProviderAvailability(input({ end: '2026-11-23T14:00:00Z' }))).toThrow(RangeError);
  });
});

describe('firstUnavailableCode', () => {
  it('is null without conflicts', () => {
    expect(firstUnavailableCode([])).toBeNull();
  });

  it('puts provider problems first, then the room, then the equipment, whatever the order given', () => {
    expect(firstUnavailableCode([{ type: 'equipment_booked' }, { type: 'room_booked' }, { type: 'time_off' }])).toBe(
      'PROVIDER_UNAVAILABLE',
    );
    expect(firstUnavailableCode([{ type: 'outside_working_hours' }])).toBe('PROVIDER_UNAVAILABLE');
    expect(firstUnavailableCode([{ type: 'provider_booked' }])).toBe('PROVIDER_UNAVAILABLE');
    expect(firstUnavailableCode([{ type: 'equipment_booked' }, { type: 'room_booked' }])).toBe('ROOM_UNAVAILABLE');
    expect(firstUnavailableCode([{ type: 'equipment_booked' }])).toBe('EQUIPMENT_UNAVAILABLE');
  });
});
