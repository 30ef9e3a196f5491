import { addMinutesTo, minutesBetween } from '../domain/reminders';

/** Time partitions Queried at once by a sweep (a few minutes' worth usually; a backlog in steps). */
const PARALLEL_QUERIES = 8;

/**
 * Every item of these time partitions, one Query each (`read`), a few at a time, in the order
 * given: how the scheduled sweeps (reminders, webhook retries, plan renewals) read what fell due
 * since their checkpoint, never a Scan.
 */
export async function readTimePartitions<T>(partitions: readonly string[], read: (partition: string) => Promise<T[]>) {
  const found: T[] = [];
  for (let i = 0; i < partitions.length; i += PARALLEL_QUERIES) {
    const pages = await Promise.all(partitions.slice(i, i + PARALLEL_QUERIES).map(read));
    found.push(...pages.flat());
  }
  return found;
}

/** Every item of the minute partitions `from` through `through` (UTC minutes, `YYYY-MM-DDTHH:MM`), in minute order. */
export function readMinutePartitions<T>(
  from: string,
  through: string,
  readMinute: (minute: string) => Promise<T[]>,
): Promise<T[]> {
  const minutes = Array.from({ length: minutesBetween(from, through) + 1 }, (_, index) => addMinutesTo(from, index));
  return readTimePartitions(minutes, readMinute);
}
