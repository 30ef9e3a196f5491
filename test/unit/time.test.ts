import { describe, it, expect } from 'vitest';
import {
  addMinutes,
  isValidTimeZone,
  localDateOf,
  localDayBounds,
  localTimeToInstant,
  weekdayKey,
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
