import { isoWeekOf, resolveDateRange } from './time';

/** Report periods and date ranges on practice-local calendar dates (`YYYY-MM-DD`), pure. */

export const REPORT_GROUPS = ['day', 'week', 'month'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** The period a local date belongs to: the date, its ISO week (`YYYY-Www`, ISO week-numbering year) or its month (`YYYY-MM`). */
export function periodOf(date: string, group: ReportGroup): string {
  if (group === 'day') return date;
  if (group === 'month') return date.slice(0, 7);
  return isoWeekOf(date);
}

/** The longest range a report takes: two years of days (one of them may be a leap year). */
export const MAX_REPORT_DAYS = 731;
/** Without `from` and `to`: the last 30 days, today included. */
export const DEFAULT_REPORT_DAYS = 30;

/**
 * A report's practice-local dates [from, to] (inclusive). Neither given: the 30 days ending
 * `today`; one given: 30 days from it. Answers the problem instead when `to` is before `from` or
 * the range is longer than two years.
 */
export const reportRange = (input: { from?: string; to?: string }, today: string) =>
  resolveDateRange(input, today, {
    defaultDays: DEFAULT_REPORT_DAYS,
    maxSpanDays: MAX_REPORT_DAYS - 1,
    tooLong: `the range is longer than 2 years (${MAX_REPORT_DAYS} days)`,
    direction: 'backward',
  });
