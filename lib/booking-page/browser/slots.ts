import type { AvailabilityEntry } from './api';
import { addDays } from './format';

/**
 * The picker's rules on days and times, apart from the DOM. Dates are practice-local
 * `YYYY-MM-DD`; a time's start is the slot's `slot_start` as offered, never computed, so a
 * booking is always at a start the API offered.
 */

/** Days fetched and shown at a time (the API takes up to 31). */
export const WINDOW_DAYS = 14;

/** A time the client picked: without a provider when any certified provider may take it. */
export interface Choice {
  start: string;
  end: string;
  providerId: string | null;
  providerName: string | null;
}

/** The days shown from `start`: WINDOW_DAYS of them, none after `last` (the booking window's end). */
export function windowDates(start: string, last: string): string[] {
  const dates: string[] = [];
  for (let day = start; day <= last && dates.length < WINDOW_DAYS; day = addDays(day, 1)) dates.push(day);
  return dates;
}

/** The last day asked for from `from`: the window's, or the booking window's end if sooner. */
export const windowEnd = (from: string, last: string) => [addDays(from, WINDOW_DAYS - 1), last].sort()[0];

/**
 * The free times of a day: one per start, in order, none before `earliest` (epoch ms: now plus
 * the practice's notice). With `providerId`, that provider's only, and named in the choice; without,
 * providers' times are merged and the API picks one.
 */
export function timesOn(entries: AvailabilityEntry[], day: string, providerId: string, earliest: number): Choice[] {
  const byStart = new Map<string, Choice>();
  for (const entry of entries) {
    if (entry.date !== day || (providerId && entry.provider.id !== providerId)) continue;
    for (const slot of entry.slots) {
      if (byStart.has(slot.slot_start) || Date.parse(slot.slot_start) < earliest) continue;
      byStart.set(slot.slot_start, {
        start: slot.slot_start,
        end: slot.slot_end,
        providerId: providerId || null,
        providerName: providerId ? entry.provider.display_name : null,
      });
    }
  }
  return [...byStart.values()].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** The day to show: `day` while it has free times, else the next of `dates` that has, else the first that has. */
export function dayToShow(day: string | null, dates: string[], free: (date: string) => boolean): string | null {
  if (day && free(day)) return day;
  return dates.find((date) => day !== null && date > day && free(date)) ?? dates.find(free) ?? null;
}
