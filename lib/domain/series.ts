import { sameLocalTimeDaysLater } from './time';

/**
 * Series (API reference, series; docs/decisions/0025-series-all-or-none.md): occurrences at the
 * same practice-local time every `every_days` days, booked all together or not at all.
 */

/** How long a series' pending claims block time before they free themselves (a request that died). */
export const SERIES_PENDING_SECONDS = 120;
/**
 * A series commits only while this much of its claims' life is left: a clock up to this far ahead
 * of the committing one may already treat them as expired (and book over them) only after the
 * commit, when it reads the series as committed (docs/decisions/0025).
 */
export const SERIES_COMMIT_MARGIN_SECONDS = 30;

/** Occurrences of a series: 2..12, every 1..180 days. */
export const SERIES_LIMITS = { count: { min: 2, max: 12 }, everyDays: { min: 1, max: 180 } } as const;

/**
 * Each occurrence's start: the first one's practice-local date plus `index × every_days` days, at
 * the first one's local wall-clock time, so 10:00 stays 10:00 across a DST change (the UTC
 * instant moves by the offset instead). A local time skipped that day moves forward by the gap.
 */
export function occurrenceStarts(firstIso: string, count: number, everyDays: number, zone: string): string[] {
  return Array.from({ length: count }, (_, index) => sameLocalTimeDaysLater(firstIso, index * everyDays, zone));
}
