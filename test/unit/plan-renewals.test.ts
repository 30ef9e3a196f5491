import { describe, expect, it } from 'vitest';
import {
  dueAction,
  dueHourOf,
  hourWindow,
  nextTerm,
  planDueHour,
  planDueOn,
  type DueFacts,
} from '../../lib/domain/plan-renewals';

/** Renewals and expiry, pure (lib/domain/plan-renewals.ts; docs/decisions/0026). */

const membership = (over: Partial<DueFacts> = {}): DueFacts => ({
  kind: 'membership',
  status: 'active',
  current_term: { starts_on: '2026-01-31', ends_on: '2026-02-27' },
  expires_on: null,
  cancel_at_term_end: false,
  ...over,
});
const pack = (over: Partial<DueFacts> = {}): DueFacts => ({
  kind: 'package',
  status: 'active',
  current_term: null,
  expires_on: '2026-07-01',
  cancel_at_term_end: false,
  ...over,
});

describe('planDueOn and dueAction', () => {
  it('an active membership is due the day after its term; renews, or ends when cancelled at term end', () => {
    expect(planDueOn(membership())).toBe('2026-02-28');
    expect(dueAction(membership(), '2026-02-27')).toBeNull();
    expect(dueAction(membership(), '2026-02-28')).toBe('renew');
    expect(dueAction(membership(), '2026-03-15')).toBe('renew');
    expect(dueAction(membership({ cancel_at_term_end: true }), '2026-02-28')).toBe('cancel');
  });

  it('a paused, cancelled or expired membership is never due', () => {
    for (const status of ['paused', 'cancelled', 'expired'] as const) {
      expect(planDueOn(membership({ status }))).toBeNull();
      expect(dueAction(membership({ status }), '2030-01-01')).toBeNull();
    }
  });

  it('a package expires on expires_on, paused or not; without one, never', () => {
    expect(dueAction(pack(), '2026-06-30')).toBeNull();
    expect(dueAction(pack(), '2026-07-01')).toBe('expire');
    expect(dueAction(pack({ status: 'paused' }), '2026-07-01')).toBe('expire');
    expect(planDueOn(pack({ expires_on: null }))).toBeNull();
    expect(planDueOn(pack({ status: 'expired' }))).toBeNull();
  });
});

describe('nextTerm', () => {
  it('counts terms from the sale, so a 31st keeps its day where the month has one', () => {
    expect(nextTerm('2026-01-31', 1, { ends_on: '2026-02-27' }, '2026-02-28')).toEqual({
      starts_on: '2026-02-28',
      ends_on: '2026-03-30',
    });
    expect(nextTerm('2026-01-31', 1, { ends_on: '2026-03-30' }, '2026-03-31')).toEqual({
      starts_on: '2026-03-31',
      ends_on: '2026-04-29',
    });
  });

  it('multi-month terms and leap years', () => {
    expect(nextTerm('2027-11-29', 3, { ends_on: '2028-02-28' }, '2028-02-29')).toEqual({
      starts_on: '2028-02-29',
      ends_on: '2028-05-28',
    });
    expect(nextTerm('2026-01-01', 12, { ends_on: '2026-12-31' }, '2027-01-01')).toEqual({
      starts_on: '2027-01-01',
      ends_on: '2027-12-31',
    });
  });

  it('skips terms that ended while nothing renewed: the term holding today', () => {
    expect(nextTerm('2026-01-31', 1, { ends_on: '2026-02-27' }, '2026-05-10')).toEqual({
      starts_on: '2026-04-30',
      ends_on: '2026-05-30',
    });
    // The last day of a term is still that term.
    expect(nextTerm('2026-01-01', 1, { ends_on: '2026-01-31' }, '2026-02-28').starts_on).toBe('2026-02-01');
  });
});

describe('dueHourOf', () => {
  const past = new Date('2020-01-01T00:00:00Z');
  it('the first whole UTC hour at or after local midnight', () => {
    // UTC+05:30: midnight is 18:30 UTC the day before.
    expect(dueHourOf('2026-02-28', 'Asia/Kolkata', past)).toBe('2026-02-27T19');
    // UTC-08:00 in winter, -07:00 in summer.
    expect(dueHourOf('2026-01-15', 'America/Los_Angeles', past)).toBe('2026-01-15T08');
    expect(dueHourOf('2026-07-15', 'America/Los_Angeles', past)).toBe('2026-07-15T07');
    // UTC+14: the day before in UTC.
    expect(dueHourOf('2026-07-15', 'Pacific/Kiritimati', past)).toBe('2026-07-14T10');
    expect(dueHourOf('2026-07-15', 'UTC', past)).toBe('2026-07-15T00');
  });

  it('a date already begun is due in the current hour', () => {
    expect(dueHourOf('2026-03-01', 'UTC', new Date('2026-05-10T04:20:00Z'))).toBe('2026-05-10T04');
  });

  it('planDueHour: none when nothing is due', () => {
    expect(planDueHour(membership({ status: 'paused' }), 'UTC', past)).toBeNull();
    expect(planDueHour(membership(), 'UTC', past)).toBe('2026-02-28T00');
  });
});

describe('hourWindow', () => {
  const now = new Date('2026-05-10T12:00:30Z');
  const options = { lookbackHours: 2, firstRunHours: 48, maxHours: 168 };
  it('from just after the checkpoint less the look-back to now, or the first run back', () => {
    expect(hourWindow('2026-05-10T11', now, options)).toEqual({ from: '2026-05-10T10', through: '2026-05-10T12' });
    expect(hourWindow(null, now, options)).toEqual({ from: '2026-05-08T13', through: '2026-05-10T12' });
  });

  it('bounded per run, and nothing when the checkpoint is ahead', () => {
    expect(hourWindow('2026-04-01T00', now, { ...options, lookbackHours: 0 })).toEqual({
      from: '2026-04-01T01',
      through: '2026-04-08T00',
    });
    expect(hourWindow('2026-05-11T00', now, { ...options, lookbackHours: 0 })).toBeNull();
  });
});
