import { localDateOf, localDayBounds } from '../domain/time';
import { AppError } from '../errors';

const DAY_MS = 86_400_000;
/** A list covers at most a year: bounded reads. */
const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 31;

export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const rangeProblem = (message: string) => new AppError('VALIDATION_ERROR', message, { details: [{ path: 'to', message }] });

/**
 * A list's practice-local dates [from, to] (inclusive) as the UTC instants [start, end). One end
 * missing: 31 days from the other. Neither: 31 days starting today (`forward`, e.g. upcoming
 * appointments) or ending today (`backward`, e.g. payments taken).
 */
export function localDateRange(input: { from?: string; to?: string }, zone: string, now: Date, direction: 'forward' | 'backward'): { start: string; end: string } {
  const today = localDateOf(now.toISOString(), zone);
  const span = DEFAULT_RANGE_DAYS - 1;
  let { from, to } = input;
  if (from === undefined && to === undefined) [from, to] = direction === 'forward' ? [today, addDays(today, span)] : [addDays(today, -span), today];
  from ??= addDays(to!, -span);
  to ??= addDays(from, span);
  if (to < from) throw rangeProblem('`to` is before `from`');
  if (Date.parse(to) - Date.parse(from) > MAX_RANGE_DAYS * DAY_MS) throw rangeProblem(`the range is longer than ${MAX_RANGE_DAYS} days`);
  return { start: localDayBounds(from, zone).start, end: localDayBounds(to, zone).end };
}
