import { describe, it, expect } from 'vitest';
import { DateTime as LuxonDateTime } from 'luxon';
import {
  isoWriter,
  addMinutes,
  byStart,
  isValidTimeZone,
  localDateOf,
  localDayBounds,
  localTimeToInstant,
  weekdayKey,
  isoWeekOf,
} from '../../lib/domain/time';

const NY = 'America/New_York';
const hours = (b: { start: string; end: string }): number => (Date.parse(b.end) - Date.parse(b.start)) / 3_600_000;

describe('localDateOf', () => {
  it('uses the practice zone, not UTC', () => {
    expect(localDateOf('2026-11-24T03:00:00Z', NY)).toBe('2026-11-23');
    expect(localDateOf('2026-11-24T05:00:00.000Z', NY)).toBe('2026-11-24');
    expect(localDateOf('2026-11-23T23:30:00-05:00', 'Europe/Paris')).toBe('2026-11-24');
  });

  it('rejects an invalid instant or zone', () => {
    expect(() => localDateOf('not a date', NY)).toThrow(RangeError);
    expect(() => localDateOf('2026-11-24T03:00:00Z', 'Mars/Base')).toThrow(RangeError);
  });
});

describe('localDayBounds', () => {
  it('is local midnight to local midnight', () => {
    expect(localDayBounds('2026-11-23', NY)).toEqual({
      start: '2026-11-23T05:00:00.000Z',
      end: '2026-11-24T05:00:00.000Z',
    });
  });

  it('is 23 hours on spring-forward and 25 on fall-back days', () => {
    expect(hours(localDayBounds('2026-03-08', NY))).toBe(23);
    expect(hours(localDayBounds('2026-11-01', NY))).toBe(25);
    expect(hours(localDayBounds('2026-03-29', 'Europe/London'))).toBe(23);
  });

  it('rejects malformed dates', () => {
    expect(() => localDayBounds('2026-02-30', NY)).toThrow(RangeError);
    expect(() => localDayBounds('2026-3-8', NY)).toThrow(RangeError);
  });
});

describe('localTimeToInstant', () => {
  it('keeps wall-clock time across DST changes', () => {
    expect(localTimeToInstant('2026-03-07', '09:00', NY)).toBe('2026-03-07T14:00:00.000Z');
    expect(localTimeToInstant('2026-03-08', '09:00', NY)).toBe('2026-03-08T13:00:00.000Z');
    expect(localTimeToInstant('2026-10-31', '09:00', NY)).toBe('2026-10-31T13:00:00.000Z');
    expect(localTimeToInstant('2026-11-01', '09:00', NY)).toBe('2026-11-01T14:00:00.000Z');
  });

  it('treats 24:00 as the next local midnight', () => {
    expect(localTimeToInstant('2026-11-01', '24:00', NY)).toBe(localDayBounds('2026-11-01', NY).end);
  });

  it('moves a time in the spring-forward gap forward and takes the earlier of an ambiguous time', () => {
    expect(localTimeToInstant('2026-03-08', '02:30', NY)).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(localTimeToInstant('2026-11-01', '01:30', NY)).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT
  });

  it('rejects malformed times', () => {
    for (const t of ['9:00', '24:01', '12:60', '25:00', '']) {
      expect(() => localTimeToInstant('2026-11-01', t, NY)).toThrow(RangeError);
    }
  });
});

describe('weekdayKey', () => {
  it('names the weekday of a plain date', () => {
    expect(weekdayKey('2026-03-08')).toBe('sun');
    expect(weekdayKey('2026-03-09')).toBe('mon');
    expect(weekdayKey('2026-11-27')).toBe('fri');
  });
});

describe('addMinutes', () => {
  it('adds elapsed minutes and normalises to toISOString form', () => {
    expect(addMinutes('2026-03-08T06:30:00Z', 60)).toBe('2026-03-08T07:30:00.000Z');
    expect(addMinutes('2026-11-23T10:00:00-05:00', -30)).toBe('2026-11-23T14:30:00.000Z');
  });
});

describe('isValidTimeZone', () => {
  it('accepts IANA zones only', () => {
    expect(isValidTimeZone(NY)).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Base')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('against luxon (an independent time-zone implementation) and the documented rules', () => {
  const zones = [
    'America/New_York',
    'Europe/London',
    'Europe/Dublin',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'Asia/Kathmandu',
    'Asia/Tehran',
    'America/St_Johns',
    'Africa/Casablanca',
    'America/Sao_Paulo',
    'Pacific/Apia',
    'UTC',
  ];
  const iso = (dt: LuxonDateTime) => new Date(dt.toMillis()).toISOString();
  // 2024-2026: every day whose local length is not 24 hours (each DST change, both directions),
  // the days either side of it, and every 30th day.
  const daysIn = (zone: string) => {
    const first = LuxonDateTime.fromObject({ year: 2024, month: 1, day: 1 }, { zone });
    const starts = Array.from({ length: 3 * 366 + 1 }, (_, i) => first.plus({ days: i }));
    const odd = starts.slice(0, -1).map((day, i) => starts[i + 1]!.toMillis() - day.toMillis() !== 86_400_000);
    return starts
      .slice(0, -1)
      .filter((_, i) => i % 30 === 0 || odd[i - 1] || odd[i] || odd[i + 1])
      .map((day) => day.toISODate()!);
  };

  it('agrees on day bounds, wall-clock times (gaps and overlaps included) and local dates', () => {
    const differences: string[] = [];
    const compare = (what: string, ours: unknown, theirs: unknown) => {
      if (JSON.stringify(ours) !== JSON.stringify(theirs))
        differences.push(`${what}: ours ${JSON.stringify(ours)}, luxon ${JSON.stringify(theirs)}`);
    };
    for (const zone of zones) {
      for (const date of daysIn(zone)) {
        const midnight = LuxonDateTime.fromISO(date, { zone }).startOf('day');
        compare(`${zone} ${date}`, localDayBounds(date, zone), {
          start: iso(midnight),
          end: iso(midnight.plus({ days: 1 })),
        });
        for (const hhmm of ['00:30', '01:30', '02:30', '03:00', '09:15', '23:59']) {
          const [hour, minute] = hhmm.split(':').map(Number);
          compare(`${zone} ${date} ${hhmm}`, localTimeToInstant(date, hhmm, zone), iso(midnight.set({ hour, minute })));
        }
        const instant = `${date}T13:17:00Z`;
        compare(
          `${zone} ${instant}`,
          localDateOf(instant, zone),
          LuxonDateTime.fromISO(instant).setZone(zone).toISODate(),
        );
      }
    }
    expect(differences).toEqual([]);
  });

  it('agrees on ISO weeks and their week-numbering years, every day of 2020-2032', () => {
    const differences: string[] = [];
    const first = LuxonDateTime.fromISO('2020-01-01', { zone: 'UTC' });
    for (let i = 0; i < 13 * 366; i++) {
      const day = first.plus({ days: i });
      const theirs = `${day.weekYear}-W${String(day.weekNumber).padStart(2, '0')}`;
      if (isoWeekOf(day.toISODate()!) !== theirs)
        differences.push(`${day.toISODate()}: ours ${isoWeekOf(day.toISODate()!)}, luxon ${theirs}`);
    }
    expect(differences).toEqual([]);
  });

  // Where local midnight itself is skipped or repeated, luxon's answer depends on its first offset
  // guess (and `plus({ days: 1 })` keeps the wall clock of a moved start); ours follows the rules.
  it('a skipped midnight starts the day after the gap, and the day ends at the next local midnight', () => {
    // Chile, 2019-09-08: 00:00 -04 became 01:00 -03.
    expect(localDayBounds('2019-09-08', 'America/Santiago')).toEqual({
      start: '2019-09-08T04:00:00.000Z',
      end: '2019-09-09T03:00:00.000Z',
    });
  });

  it('a repeated midnight takes the earlier instant', () => {
    // Cuba, 2022-11-06: 01:00 CDT fell back to 00:00 CST, so 00:00-01:00 happened twice.
    expect(localDayBounds('2022-11-06', 'America/Havana')).toEqual({
      start: '2022-11-06T04:00:00.000Z',
      end: '2022-11-07T05:00:00.000Z',
    });
    expect(localTimeToInstant('2022-11-06', '00:30', 'America/Havana')).toBe('2022-11-06T04:30:00.000Z');
  });

  it('keeps offsets that hold seconds (local mean times, before 1973)', () => {
    // Liberia kept -00:44:30 until 1972.
    expect(localTimeToInstant('1970-06-01', '00:00', 'Africa/Monrovia')).toBe('1970-06-01T00:44:30.000Z');
    expect(localTimeToInstant('1970-06-01', '00:00', 'Africa/Monrovia')).toBe(
      iso(LuxonDateTime.fromISO('1970-06-01', { zone: 'Africa/Monrovia' })),
    );
  });

  it('leaves the process time zone as it found it (offsets are read with TZ set for one synchronous call)', () => {
    const before = process.env.TZ;
    const processOffset = new Date(Date.UTC(2031, 6, 1)).getTimezoneOffset();
    localTimeToInstant('2031-03-09', '02:30', NY);
    localDateOf('2031-10-26T01:30:00Z', 'Europe/London');
    expect(process.env.TZ).toBe(before);
    expect(new Date(Date.UTC(2031, 6, 1)).getTimezoneOffset()).toBe(processOffset);
  });

  it('refuses impossible calendar dates and instants', () => {
    expect(() => localDayBounds('2025-02-29', NY)).toThrow(RangeError);
    expect(() => localDateOf('2025-02-29T10:00:00Z', NY)).toThrow(RangeError);
    expect(() => addMinutes('2025-01-01T24:00:00Z', 1)).toThrow(RangeError);
    expect(localDayBounds('2024-02-29', 'UTC').start).toBe('2024-02-29T00:00:00.000Z');
  });
});

describe('byStart', () => {
  it('orders HH:MM periods and UTC instants as times, like an ordinal string sort', () => {
    const periods = ['17:00', '09:30', '00:00', '12:05', '09:05'].map((start) => ({ start }));
    expect([...periods].sort(byStart).map((p) => p.start)).toEqual(['00:00', '09:05', '09:30', '12:05', '17:00']);
    const instants = ['2031-01-07T15:00:00.000Z', '2030-12-31T23:59:59.000Z', '2031-01-07T09:00:00.000Z'].map(
      (start) => ({ start }),
    );
    expect([...instants].sort(byStart).map((p) => Date.parse(p.start))).toEqual(
      instants.map((p) => Date.parse(p.start)).sort((a, b) => a - b),
    );
    expect(byStart({ start: '10:00' }, { start: '10:00' })).toBe(0);
  });
});

describe('isoWriter', () => {
  it('writes what toISOString writes, whole minutes or not, across days, years and 1970', () => {
    const write = isoWriter();
    const instants = [
      Date.parse('2026-12-01T15:00:00.000Z'),
      Date.parse('2026-12-01T23:59:00.000Z'),
      Date.parse('2026-12-02T00:00:00.000Z'),
      Date.parse('2026-12-31T23:45:00.000Z'),
      Date.parse('2027-01-01T00:15:00.000Z'),
      Date.parse('1969-12-31T23:59:00.000Z'),
      Date.parse('1900-03-01T08:30:00.000Z'),
      Date.parse('2999-12-31T23:59:00.000Z'),
      Date.parse('2026-12-01T15:00:30.000Z'),
      Date.parse('2026-12-01T15:00:00.001Z'),
      -1,
      0,
      1,
    ];
    // And a random walk, as a month's slots go: mostly whole minutes, sometimes not, forwards and back.
    let t = Date.parse('2026-03-08T06:00:00.000Z');
    for (let i = 0; i < 5000; i += 1) {
      t += (Math.floor(Math.random() * 200) - 20) * 60_000 + (i % 17 === 0 ? Math.floor(Math.random() * 60_000) : 0);
      instants.push(t);
    }
    for (const instant of instants) expect(write(instant)).toBe(new Date(instant).toISOString());
  });

  it('refuses what toISOString refuses', () => {
    expect(() => isoWriter()(Number.NaN)).toThrow(RangeError);
  });
});
