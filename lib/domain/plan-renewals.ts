import { addCalendarMonths, type ClientPlanStatus, type PlanKind } from './plans';
import { addDays, localDayBounds } from './time';

/**
 * Renewals and expiry of client plans (API reference, section 12), pure: the practice-local date
 * something is due on, what is due, a membership's next term, and the UTC hour partition the
 * hourly sweep finds a plan in (docs/decisions/0026-plan-renewal-sweep.md).
 */

export interface DueFacts {
  kind: PlanKind;
  status: ClientPlanStatus;
  current_term: { starts_on: string; ends_on: string } | null;
  expires_on: string | null;
  cancel_at_term_end: boolean;
}

/**
 * The practice-local date a plan's next change falls on, or null: an active membership's next
 * term starts the day after its term ends (or, cancelled at term end, it ends then); a paused
 * membership has none (it does not renew; resuming arms it again); a package's units expire on
 * `expires_on`, paused or not (a pause does not extend it); cancelled and expired plans are done.
 */
export function planDueOn(plan: DueFacts): string | null {
  if (plan.kind === 'membership')
    return plan.status === 'active' && plan.current_term ? addDays(plan.current_term.ends_on, 1) : null;
  return plan.status === 'active' || plan.status === 'paused' ? plan.expires_on : null;
}

export type PlanDueAction = 'renew' | 'cancel' | 'expire';

/** What the sweep does to a plan on practice-local date `today`: null while nothing is due. */
export function dueAction(plan: DueFacts, today: string): PlanDueAction | null {
  const dueOn = planDueOn(plan);
  if (dueOn === null || dueOn > today) return null;
  if (plan.kind === 'package') return 'expire';
  return plan.cancel_at_term_end ? 'cancel' : 'renew';
}

/** Terms are counted from the sale's start, so a 31st keeps its day where the month has one (Jan 31, Feb 28, Mar 31). */
const termStart = (startsOn: string, termMonths: number, index: number) =>
  addCalendarMonths(startsOn, index * termMonths);

/** Far more terms than a membership lives (a guard against a malformed record, not a limit). */
const MAX_TERMS = 12 * 200;

/**
 * The term a renewal on `today` grants: the one after the current term, or, when that one has
 * already ended too (the membership was paused through it, or the sweep was down), the term that
 * holds `today`: terms that passed while nothing renewed are never granted.
 */
export function nextTerm(
  startsOn: string,
  termMonths: number,
  current: { ends_on: string },
  today: string,
): { starts_on: string; ends_on: string } {
  let index = 1;
  while (termStart(startsOn, termMonths, index) <= current.ends_on && index < MAX_TERMS) index += 1;
  const endOf = (i: number) => addDays(termStart(startsOn, termMonths, i + 1), -1);
  while (endOf(index) < today && index < MAX_TERMS) index += 1;
  return { starts_on: termStart(startsOn, termMonths, index), ends_on: endOf(index) };
}

// ---- Hour partitions (UTC hours, `YYYY-MM-DDTHH`) ----------------------------------------------

const HOUR_MS = 3_600_000;

export const utcHourOf = (instant: Date | number): string => new Date(instant).toISOString().slice(0, 13);
const hourStart = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);
export const addHoursTo = (hour: string, hours: number): string => utcHourOf(hourStart(hour) + hours * HOUR_MS);
export const hoursBetween = (from: string, to: string): number =>
  Math.round((hourStart(to) - hourStart(from)) / HOUR_MS);

/**
 * The UTC hour a plan due on practice-local `dueOn` is swept in: the first hour starting at or
 * after local midnight (a zone 30 or 45 minutes off the hour is never a day early), or `now`'s
 * hour when that has passed (a membership resumed after its term ended renews within the hour).
 */
export function dueHourOf(dueOn: string, zone: string, now: Date): string {
  const midnight = Date.parse(localDayBounds(dueOn, zone).start);
  const hour = Math.ceil(midnight / HOUR_MS) * HOUR_MS;
  return utcHourOf(Math.max(hour, Math.floor(now.getTime() / HOUR_MS) * HOUR_MS));
}

/** The hours a sweep covers: from just after its checkpoint (less a look-back) to `now`'s hour, at most `maxHours`. */
export function hourWindow(
  checkpoint: string | null,
  now: Date,
  options: { lookbackHours: number; firstRunHours: number; maxHours: number },
): { from: string; through: string } | null {
  const end = utcHourOf(now);
  const from = checkpoint
    ? addHoursTo(checkpoint, 1 - options.lookbackHours)
    : addHoursTo(end, 1 - options.firstRunHours);
  const span = hoursBetween(from, end) + 1;
  if (span < 1) return null;
  return { from, through: span > options.maxHours ? addHoursTo(from, options.maxHours - 1) : end };
}

/** The hour partition a plan is due in, after a change to these facts (null: nothing due). */
export function planDueHour(plan: DueFacts, zone: string, now: Date): string | null {
  const dueOn = planDueOn(plan);
  return dueOn === null ? null : dueHourOf(dueOn, zone, now);
}
