import { describe, expect, it } from 'vitest';
import {
  addMinutesTo,
  minutesBetween,
  reminderDueMinute,
  reminderStillDue,
  sweepWindow,
  utcMinuteOf,
} from '../../lib/domain/reminders';

// Times relative to now, aligned to whole minutes where the rule is about minutes.
const MINUTE = 60_000;
const base = new Date(Math.floor(Date.now() / MINUTE) * MINUTE + 10 * 24 * 60 * MINUTE);
const at = (minutes: number, seconds = 0) => new Date(base.getTime() + minutes * MINUTE + seconds * 1000);

describe('reminderDueMinute', () => {
  it('is lead minutes before the start', () => {
    expect(reminderDueMinute(at(0).toISOString(), 1440, at(-3000))).toBe(utcMinuteOf(at(-1440)));
    expect(reminderDueMinute(at(0).toISOString(), 0, at(-10))).toBe(utcMinuteOf(at(0)));
  });

  it('is never early: a start with seconds rounds the due time up', () => {
    expect(reminderDueMinute(at(0, 30).toISOString(), 60, at(-3000))).toBe(utcMinuteOf(at(-59)));
  });

  it('inside the lead time it is the minute after now; once started there is none', () => {
    expect(reminderDueMinute(at(0).toISOString(), 1440, at(-30, 15))).toBe(utcMinuteOf(at(-29)));
    expect(reminderDueMinute(at(0).toISOString(), 1440, at(0))).toBeNull();
    expect(reminderDueMinute(at(0).toISOString(), 1440, at(5))).toBeNull();
  });
});

describe('reminderStillDue', () => {
  const appointment = { status: 'confirmed' as const, scheduled_at: at(0).toISOString(), end_at: at(60).toISOString() };

  it('only for an active appointment still at the armed time and not over', () => {
    expect(reminderStillDue(appointment.scheduled_at, appointment, at(-1440))).toBe(true);
    expect(reminderStillDue(at(30).toISOString(), appointment, at(-1440))).toBe(false);
    expect(reminderStillDue(appointment.scheduled_at, null, at(-1440))).toBe(false);
    expect(reminderStillDue(appointment.scheduled_at, appointment, at(60))).toBe(false);
    for (const status of ['cancelled', 'no_show', 'completed'] as const) {
      expect(reminderStillDue(appointment.scheduled_at, { ...appointment, status }, at(-1440))).toBe(false);
    }
  });
});

describe('sweepWindow', () => {
  const options = { lookbackMinutes: 2, firstRunMinutes: 60, maxMinutes: 120 };

  it('first run: the last hour up to now', () => {
    expect(sweepWindow(null, at(0, 42), options)).toEqual({ from: utcMinuteOf(at(-59)), through: utcMinuteOf(at(0)) });
  });

  it('next runs: from just after the checkpoint, less the look-back', () => {
    expect(sweepWindow(utcMinuteOf(at(-1)), at(0), options)).toEqual({
      from: utcMinuteOf(at(-2)),
      through: utcMinuteOf(at(0)),
    });
  });

  it('a sweep that fell behind catches up at most maxMinutes per run', () => {
    const window = sweepWindow(utcMinuteOf(at(-1000)), at(0), options)!;
    expect(minutesBetween(window.from, window.through) + 1).toBe(120);
    expect(window.from).toBe(utcMinuteOf(at(-1000 - 1)));
  });

  it('nothing when now is before the checkpoint', () => {
    expect(sweepWindow(utcMinuteOf(at(10)), at(0), options)).toBeNull();
  });

  it('minute arithmetic', () => {
    expect(addMinutesTo(utcMinuteOf(at(0)), 90)).toBe(utcMinuteOf(at(90)));
    expect(minutesBetween(utcMinuteOf(at(5)), utcMinuteOf(at(0)))).toBe(-5);
  });
});
