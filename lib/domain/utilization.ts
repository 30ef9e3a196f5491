import { overlaps, workingPeriods, type Interval, type TimeOff, type WorkingHours } from './availability';
import { addDays } from './time';

const ms = (iso: string) => Date.parse(iso);

/** The parts of `period` that no interval of `cuts` covers. */
function subtract(period: Interval, cuts: readonly Interval[]): Interval[] {
  let pieces: Interval[] = [period];
  for (const cut of cuts) {
    pieces = pieces.flatMap((piece) => {
      if (!overlaps(cut, piece)) return [piece];
      const kept: Interval[] = [];
      if (ms(piece.start) < ms(cut.start)) kept.push({ start: piece.start, end: cut.start });
      if (ms(cut.end) < ms(piece.end)) kept.push({ start: cut.end, end: piece.end });
      return kept;
    });
  }
  return pieces;
}

/**
 * A provider's working minutes on the practice-local dates `from`..`to` (inclusive): each day's
 * working periods placed by wall-clock time in `zone` (so a period across a spring-forward gap is
 * an hour shorter and one across a fall-back an hour longer, as actually worked), less time off.
 */
export function workingMinutes(input: {
  from: string;
  to: string;
  zone: string;
  workingHours: WorkingHours;
  timeOff: readonly TimeOff[];
}): number {
  let total = 0;
  for (let date = input.from; date <= input.to; date = addDays(date, 1)) {
    for (const period of workingPeriods(date, input.workingHours, input.zone)) {
      for (const piece of subtract(period, input.timeOff)) total += (ms(piece.end) - ms(piece.start)) / 60_000;
    }
  }
  return Math.round(total);
}

/** Booked minutes of completed appointments over working minutes, to 4 decimals; null without working time. */
export const utilization = (bookedMinutes: number, working: number): number | null =>
  working > 0 ? Math.round((bookedMinutes / working) * 10_000) / 10_000 : null;
