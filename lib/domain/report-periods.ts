import { DateTime } from 'luxon';

/** Report periods and date ranges on practice-local calendar dates (`YYYY-MM-DD`), pure. */

export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

const DAY_MS = 86_400_000;

/** Calendar arithmetic on a plain date. */
export const addDaysToDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Days from `from` to `to`, both inclusive (1 for a single day). */
export const daysInRange = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The period a local date belongs to: the date, its ISO week (`YYYY-Www`, ISO week-numbering year) or its month (`YYYY-MM`). */
export function periodOf(date: string, group: ReportGroup): string {
  if (group === 'day') return date;
  if (group === 'month') return date.slice(0, 7);
  const dt = DateTime.fromISO(date, { zone: 'UTC' });
  return `${dt.weekYear}-W${String(dt.weekNumber).padStart(2, '0')}`;
}

/** Every date of the range, in order. */
export function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDaysToDate(date, 1)) dates.push(date);
  return dates;
}

/** The longest range a report takes: two years of days (one of them may be a leap year). */
export const MAX_REPORT_DAYS = 731;
/** Without `from` and `to`: the last 30 days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

export type RangeProblem = { path: 'from' | 'to'; message: string };

/**
 * A report's practice-local dates [from, to] (inclusive). Neither given: the 30 days ending
 * `today`; one given: 30 days from it. Answers the problem instead when `to` is before `from` or
 * the range is longer than two years.
 */
export function reportRange(input: { from?: string; to?: string }, today: string): { from: string; to: string } | RangeProblem {
  const span = DEFAULT_REPORT_DAYS - 1;
  let { from, to } = input;
  if (from === undefined && to === undefined) [from, to] = [addDaysToDate(today, -span), today];
  from ??= addDaysToDate(to!, -span);
  to ??= addDaysToDate(from, span);
  if (to < from) return { path: 'to', message: '`to` is before `from`' };
  if (daysInRange(from, to) > MAX_REPORT_DAYS) return { path: 'to', message: `the range is longer than 2 years (${MAX_REPORT_DAYS} days)` };
  return { from, to };
}
