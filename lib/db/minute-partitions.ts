import { addMinutesTo, minutesBetween } from '../domain/reminders';

/** Minute partitions Queried at once by a sweep (a few minutes' worth usually; a backlog in steps). */
const PARALLEL_QUERIES = 8;

/**
 * Every item of the minute partitions `from` through `through` (UTC minutes, `YYYY-MM-DDTHH:MM`),
 * one Query a minute (`readMinute`), a few at a time, in minute order: how the scheduled sweeps
 * (reminders, webhook retries) read what fell due since their checkpoint, never a Scan.
 */
export async function readMinutePartitions<T>(
  from: string,
  through: string,
  readMinute: (minute: string) => Promise<T[]>,
): Promise<T[]> {
  const minutes = Array.from({ length: minutesBetween(from, through) + 1 }, (_, index) => addMinutesTo(from, index));
  const found: T[] = [];
  for (let i = 0; i < minutes.length; i += PARALLEL_QUERIES) {
    const pages = await Promise.all(minutes.slice(i, i + PARALLEL_QUERIES).map(readMinute));
    found.push(...pages.flat());
  }
  return found;
}
