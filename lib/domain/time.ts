import { DateTime, IANAZone } from 'luxon';

export type WeekdayKey = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

// Luxon weekday numbers are 1 (Monday) .. 7 (Sunday).
const WEEKDAYS: readonly WeekdayKey[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const HHMM = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

// Callers validate input at the edge; an invalid value reaching the domain is a bug, so fail
// loudly instead of letting luxon's "Invalid DateTime" flow into keys and responses.
function checked(dt: DateTime, what: string): DateTime {
  if (!dt.isValid) throw new RangeError(`invalid ${what}: ${dt.invalidExplanation ?? dt.invalidReason}`);
  return dt;
}

function toIso(dt: DateTime): string {
  return new Date(dt.toMillis()).toISOString();
}

function parseInstant(iso: string): DateTime {
  return checked(DateTime.fromISO(iso, { setZone: true }), `instant "${iso}"`);
}

function localMidnight(date: string, zone: string): DateTime {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`invalid date "${date}"`);
  return checked(DateTime.fromISO(date, { zone }), `date "${date}" in "${zone}"`).startOf('day');
}

export function isValidTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** The practice-local calendar date (YYYY-MM-DD) of an instant. */
export function localDateOf(instantIso: string, zone: string): string {
  return checked(parseInstant(instantIso).setZone(zone), `zone "${zone}"`).toISODate()!;
}

/** Local midnight to the next local midnight: 23 or 25 hours long on DST change days. */
export function localDayBounds(date: string, zone: string): { start: string; end: string } {
  const start = localMidnight(date, zone);
  return { start: toIso(start), end: toIso(start.plus({ days: 1 })) };
}

/**
 * A local wall-clock time on a local date as a UTC instant. "24:00" is the next local midnight.
 * A time skipped by a spring-forward gap moves forward by the gap (02:30 becomes 03:30 EDT);
 * an ambiguous fall-back time takes the earlier (daylight) offset.
 */
export function localTimeToInstant(date: string, hhmm: string, zone: string): string {
  const m = HHMM.exec(hhmm);
  if (!m) throw new RangeError(`invalid time "${hhmm}"`);
  const midnight = localMidnight(date, zone);
  if (m[1] === undefined) return toIso(midnight.plus({ days: 1 }));
  // Set wall-clock fields rather than adding a duration, so DST changes earlier that day do not shift it.
  return toIso(checked(midnight.set({ hour: Number(m[1]), minute: Number(m[2]) }), `time "${hhmm}"`));
}

export function weekdayKey(date: string): WeekdayKey {
  return WEEKDAYS[localMidnight(date, 'UTC').weekday - 1]!;
}

export function addMinutes(iso: string, minutes: number): string {
  return toIso(parseInstant(iso).plus({ minutes }));
}
