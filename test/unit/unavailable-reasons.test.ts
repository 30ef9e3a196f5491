import { describe, expect, it } from 'vitest';
import { checkProviderAvailability, startsInThePast, unavailableProblems } from '../../lib/domain/availability';
import { futureWeekday, NY, utc } from '../fixtures/dates';

const DAY = futureWeekday('mon', 2);
/** A New York wall-clock time on DAY, as the API writes instants. */
const t = (hhmm: string) => utc(DAY, hhmm);
const base = {
  zone: NY,
  workingHours: { mon: [{ start: '09:00', end: '17:00' }] },
  timeOff: [{ start: t('14:00'), end: t('15:00') }],
  providerBusy: [{ start: t('10:00'), end: t('11:00'), appointment_id: 'a1' }],
  roomBusy: [{ start: t('10:30'), end: t('11:30'), appointment_id: 'a2' }],
};

describe('unavailableProblems: the contract reasons per resource', () => {
  it('maps conflicts to reasons of the resource asked about, inactivity first', () => {
    const { conflicts } = checkProviderAvailability({ ...base, start: t('10:30'), end: t('11:30') });
    expect(unavailableProblems('PROVIDER_UNAVAILABLE', conflicts, true)).toEqual([
      { reason: 'overlap', start: t('10:00'), end: t('11:00'), appointment_id: 'a1' },
    ]);
    expect(unavailableProblems('PROVIDER_UNAVAILABLE', conflicts, false).map((p) => p.reason)).toEqual([
      'inactive',
      'overlap',
    ]);
    expect(unavailableProblems('ROOM_UNAVAILABLE', conflicts, true)).toEqual([
      { reason: 'overlap', start: t('10:30'), end: t('11:30'), appointment_id: 'a2' },
    ]);
    expect(unavailableProblems('EQUIPMENT_UNAVAILABLE', conflicts, true)).toEqual([]);
  });

  it('working hours and time off', () => {
    const late = checkProviderAvailability({ ...base, start: t('16:30'), end: t('17:30') });
    expect(unavailableProblems('PROVIDER_UNAVAILABLE', late.conflicts, true)).toEqual([
      { reason: 'outside_working_hours' },
    ]);
    const off = checkProviderAvailability({ ...base, start: t('14:30'), end: t('15:30') });
    expect(unavailableProblems('PROVIDER_UNAVAILABLE', off.conflicts, true)).toEqual([
      { reason: 'time_off', start: t('14:00'), end: t('15:00') },
    ]);
  });
});

describe('startsInThePast: 5 minutes of grace', () => {
  const now = new Date(t('10:00'));
  it('accepts up to 5 minutes ago and anything later, refuses earlier', () => {
    expect(startsInThePast(t('09:55'), now)).toBe(false);
    expect(startsInThePast(new Date(Date.parse(t('09:55')) - 1).toISOString(), now)).toBe(true);
    expect(startsInThePast(t('11:00'), now)).toBe(false);
  });
});
