import { overlaps, type Busy, type Interval } from './availability';
import { MAX_BUFFER_MINUTES } from './held-time';
import { isoWriter } from './time';
import { isLiveEntry } from './holds';

/**
 * Time claims in UTC hour buckets: why, in docs/decisions/0001-time-claims-in-hour-buckets.md. An
 * entry is a claimant's held time (client time plus buffers, lib/domain/held-time.ts): an active
 * appointment's, or a hold's (`hold: true`, keyed by the hold's id in `appointment_id`, with its
 * `expires_at`). A hold's entry past `expires_at` holds nothing (lib/domain/holds.ts `isLiveEntry`):
 * it is left out of every busy computation.
 */
export type BucketEntry = {
  appointment_id: string;
  start: string;
  end: string;
  hold?: true;
  expires_at?: string;
  /** A pending series' claim (docs/decisions/0025): `expires_at` counts only while its series has not committed. */
  series_id?: string;
};

const HOUR_MS = 3_600_000;
/** toISOString, fast for whole hours (a month's search names hundreds of buckets). */
const hourText = isoWriter();
/** Longest appointment: 8 hours. */
export const MAX_APPOINTMENT_MINUTES = 8 * 60;
/** Longest held time a claim covers: 8 hours and two buffers of 4 hours touch at most 17 hour buckets. */
export const MAX_CLAIM_MINUTES = MAX_APPOINTMENT_MINUTES + 2 * MAX_BUFFER_MINUTES;
/**
 * Largest read range: any 72-hour window widened by two largest buffers, 80 hours (81 hour buckets
 * when it does not start on the hour); a bounded fan-out.
 */
export const MAX_RANGE_BUCKETS = 72 + (2 * MAX_BUFFER_MINUTES) / 60 + 1;

function hourBuckets(start: string, end: string, maxBuckets: number): string[] {
  const s = Date.parse(start);
  const e = Date.parse(end);
  if (!(s < e)) throw new RangeError(`invalid interval ${start}..${end}`);
  const ids: string[] = [];
  // From the hour containing start up to, not including, the hour starting at or after end.
  for (let h = Math.floor(s / HOUR_MS) * HOUR_MS; h < e; h += HOUR_MS) {
    if (ids.length === maxBuckets)
      throw new RangeError(`interval ${start}..${end} spans more than ${maxBuckets} hour buckets`);
    ids.push(hourText(h).slice(0, 13));
  }
  return ids;
}

/** The hour buckets a booking holding [start, end) must claim. At most MAX_CLAIM_MINUTES long. */
export function bucketIdsFor(start: string, end: string): string[] {
  if (Date.parse(end) - Date.parse(start) > MAX_CLAIM_MINUTES * 60_000) {
    throw new RangeError(`interval ${start}..${end} is longer than ${MAX_CLAIM_MINUTES} minutes`);
  }
  return hourBuckets(start, end, Math.ceil(MAX_CLAIM_MINUTES / 60) + 1);
}

/**
 * The hour buckets to read to see every active appointment overlapping [start, end). Every booking
 * sits in each bucket it touches, so the range's own buckets are enough.
 */
export function bucketIdsForRange(start: string, end: string): string[] {
  return hourBuckets(start, end, MAX_RANGE_BUCKETS);
}

/**
 * The hour buckets to read to see every active appointment overlapping any of the periods, each
 * period cut to start no earlier than `notBefore` (slots never start in the past). Sorted, unique.
 * The same argument as for a range: an overlapping booking sits in a bucket of the overlap.
 */
export function bucketIdsForPeriods(periods: readonly Interval[], notBefore?: string): string[] {
  const floor = notBefore === undefined ? -Infinity : Date.parse(notBefore);
  const ids = new Set<string>();
  for (const period of periods) {
    const start = Math.max(Date.parse(period.start), floor);
    if (!(start < Date.parse(period.end))) continue;
    for (const id of hourBuckets(new Date(start).toISOString(), period.end, MAX_RANGE_BUCKETS)) ids.add(id);
  }
  return [...ids].sort();
}

const ms = (iso: string): number => Date.parse(iso);

/** Entries that overlap the interval, apart from the appointment being moved. */
export function bucketConflicts(
  entries: readonly BucketEntry[],
  interval: Interval,
  ignoreAppointmentId?: string,
): BucketEntry[] {
  return entries.filter((e) => e.appointment_id !== ignoreAppointmentId && overlaps(e, interval));
}

const byStart = (a: BucketEntry, b: BucketEntry): number =>
  ms(a.start) - ms(b.start) || (a.appointment_id < b.appointment_id ? -1 : a.appointment_id > b.appointment_id ? 1 : 0);

/** The bucket's entries with this appointment's (new) interval, replacing any older one. */
export function withEntry(entries: readonly BucketEntry[], entry: BucketEntry): BucketEntry[] {
  return [...withoutEntry(entries, entry.appointment_id), { ...entry }].sort(byStart);
}

export function withoutEntry(entries: readonly BucketEntry[], appointmentId: string): BucketEntry[] {
  return entries.filter((e) => e.appointment_id !== appointmentId);
}

/**
 * One busy interval per appointment or live hold across the buckets read (a long one sits in
 * several); a hold expired at `now` (epoch ms) is no longer busy.
 */
export function busyFromBuckets(bucketsEntries: readonly (readonly BucketEntry[])[], now?: number): Busy[] {
  const byId = new Map<string, Busy>();
  for (const e of bucketsEntries.flat()) {
    if (now !== undefined && !isLiveEntry(e, now)) continue;
    if (!byId.has(e.appointment_id))
      byId.set(e.appointment_id, {
        appointment_id: e.appointment_id,
        start: e.start,
        end: e.end,
        ...(e.hold ? { hold: true as const } : {}),
      });
  }
  return [...byId.values()].sort(byStart);
}
