import { localDateOf, localDayBounds, resolveDateRange, type DateRangeRule } from '../domain/time';
import { AppError } from '../errors';

/** A list covers at most a year: bounded reads. */
const LIST_RANGE: DateRangeRule = {
  defaultDays: 31,
  maxSpanDays: 366,
  tooLong: 'the range is longer than 366 days',
  direction: 'forward',
};

/**
 * A list's practice-local dates [from, to] (inclusive) as the UTC instants [start, end). One end
 * missing: 31 days from the other. Neither: 31 days starting today (`forward`, e.g. upcoming
 * appointments) or ending today (`backward`, e.g. payments taken).
 */
export function localDateRange(
  input: { from?: string; to?: string },
  zone: string,
  now: Date,
  direction: 'forward' | 'backward',
): { start: string; end: string } {
  const range = resolveDateRange(input, localDateOf(now.toISOString(), zone), { ...LIST_RANGE, direction });
  if ('message' in range) throw new AppError('VALIDATION_ERROR', range.message, { details: [range] });
  return { start: localDayBounds(range.from, zone).start, end: localDayBounds(range.to, zone).end };
}
