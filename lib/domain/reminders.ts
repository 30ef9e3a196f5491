import { isActive, type AppointmentStatus } from './status';

/**
 * Scheduled reminders, pure (API reference, webhooks and events: `appointment.reminder` once, `reminder_lead_minutes`
 * before an active appointment). Times are UTC minutes `YYYY-MM-DDTHH:MM`, the unit the sweeper
 * works in.
 */

export const DEFAULT_REMINDER_LEAD_MINUTES = 1440;

const MINUTE_MS = 60_000;

/** The UTC minute an instant falls in. */
export const utcMinuteOf = (instant: Date | string): string => new Date(instant).toISOString().slice(0, 16);

export const minuteStart = (minute: string): number => Date.parse(`${minute}:00.000Z`);

export const addMinutesTo = (minute: string, minutes: number): string =>
  utcMinuteOf(new Date(minuteStart(minute) + minutes * MINUTE_MS));

/** Whole minutes from `from` to `to` (negative when `to` is earlier). */
export const minutesBetween = (from: string, to: string): number =>
  Math.round((minuteStart(to) - minuteStart(from)) / MINUTE_MS);

/**
 * The minute an appointment's reminder falls due: the first minute at or after `lead` minutes
 * before its start (never early), or, when that has already passed (booked or moved inside the
 * lead time), the minute after `now`, so every active appointment still gets its reminder. A due
 * minute is always later than `now`'s minute, so it is never one the sweeper has already passed.
 * Null when the appointment has started: nothing left to remind of.
 */
export function reminderDueMinute(scheduledAt: string, leadMinutes: number, now: Date): string | null {
  const start = Date.parse(scheduledAt);
  if (Number.isNaN(start) || start <= now.getTime()) return null;
  const dueAt = Math.ceil((start - leadMinutes * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
  const earliest = (Math.floor(now.getTime() / MINUTE_MS) + 1) * MINUTE_MS;
  return utcMinuteOf(new Date(Math.max(dueAt, earliest)));
}

/**
 * Whether an armed reminder still goes out: the appointment exists, is active, is still at the
 * armed time (a reschedule armed its new time; the old one lapses), and has not ended.
 */
export function reminderStillDue(
  armedScheduledAt: string,
  appointment: { status: AppointmentStatus; scheduled_at: string; end_at: string } | null,
  now: Date,
): boolean {
  if (!appointment || !isActive(appointment.status)) return false;
  if (appointment.scheduled_at !== armedScheduledAt) return false;
  return now.getTime() < Date.parse(appointment.end_at);
}

/** The window a sweep covers: from just after its checkpoint (less a look-back for clock skew) to `now`'s minute, bounded. */
export function sweepWindow(
  checkpoint: string | null,
  now: Date,
  options: { lookbackMinutes: number; firstRunMinutes: number; maxMinutes: number },
): { from: string; through: string } | null {
  const end = utcMinuteOf(now);
  const from = checkpoint
    ? addMinutesTo(checkpoint, 1 - options.lookbackMinutes)
    : addMinutesTo(end, 1 - options.firstRunMinutes);
  if (minutesBetween(from, end) < 0) return null;
  const through = minutesBetween(from, end) + 1 > options.maxMinutes ? addMinutesTo(from, options.maxMinutes - 1) : end;
  return { from, through };
}
