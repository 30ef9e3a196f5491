import { addDays, localDateOf } from './time';

/**
 * Online booking rules (API reference, online booking), pure: the practice's settings with their
 * defaults, the booking window, the manage cutoff, and what a stranger may see of a provider.
 */
export interface OnlineBookingSettings {
  enabled: boolean;
  /** Last bookable date: today + horizon_days, practice-local. */
  horizon_days: number;
  /** No slot earlier than now + min_notice_minutes. */
  min_notice_minutes: number;
  /** Cancel and reschedule until this long before the start. */
  cancel_cutoff_minutes: number;
  /** Active future online bookings one client (by email) may hold. */
  max_active_bookings_per_client: number;
  /** Shown with services that ask a deposit (the booking page does not book them); null: none. */
  deposit_note: string | null;
}

export const ONLINE_BOOKING_DEFAULTS: OnlineBookingSettings = {
  enabled: false,
  horizon_days: 60,
  min_notice_minutes: 120,
  cancel_cutoff_minutes: 1440,
  max_active_bookings_per_client: 3,
  deposit_note: null,
};

export const onlineBookingOf = (stored: Partial<OnlineBookingSettings> | undefined): OnlineBookingSettings => ({
  ...ONLINE_BOOKING_DEFAULTS,
  ...stored,
});

const MINUTE_MS = 60_000;

/** The step of the starts public availability offers, and so of the only times a client may book. */
export const PUBLIC_SLOT_MINUTES = 15;

/** The bookable window at `now`: the earliest start (an instant) and the last practice-local date. */
export function bookingWindow(now: Date, settings: OnlineBookingSettings, timeZone: string) {
  return {
    earliestStart: new Date(now.getTime() + settings.min_notice_minutes * MINUTE_MS).toISOString(),
    lastDate: addDays(localDateOf(now.toISOString(), timeZone), settings.horizon_days),
  };
}

/** Why `scheduledAt` is outside the window, or null when a client may book it. */
export function outsideWindow(
  scheduledAt: string,
  now: Date,
  settings: OnlineBookingSettings,
  timeZone: string,
): string | null {
  const window = bookingWindow(now, settings, timeZone);
  if (Date.parse(scheduledAt) < Date.parse(window.earliestStart))
    return `at least ${settings.min_notice_minutes} minutes ahead`;
  if (localDateOf(scheduledAt, timeZone) > window.lastDate) return `at most ${settings.horizon_days} days ahead`;
  return null;
}

/** Whether a client may still cancel or move a booking starting at `start`. */
export const withinCancelWindow = (
  start: string,
  now: Date,
  settings: Pick<OnlineBookingSettings, 'cancel_cutoff_minutes'>,
) => now.getTime() <= Date.parse(start) - settings.cancel_cutoff_minutes * MINUTE_MS;

/** A provider as strangers see them: first name and last initial. */
export function displayName(person: { first_name: string; last_name: string }): string {
  const initial = [...person.last_name.trim()][0];
  return initial ? `${person.first_name.trim()} ${initial.toUpperCase()}.` : person.first_name.trim();
}

/** The ledger entries (appointment id -> end) still holding time at `now`: the client's active online bookings. */
export function liveBookings(ends: Readonly<Record<string, string>>, now: Date): Record<string, string> {
  const nowIso = now.toISOString();
  return Object.fromEntries(Object.entries(ends).filter(([, end]) => new Date(end).toISOString() > nowIso));
}
