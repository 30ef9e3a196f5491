import { heldInterval, type Buffers } from './held-time';
import { isActive, type AppointmentStatus } from './status';
import type { TimeSpan, WaitlistEntryRecord } from './records/waitlist';
import type { WaitlistEntry } from '../schemas/waitlist';

/**
 * The waitlist's rules, pure (API reference, waitlist; docs/decisions/0032): which change frees
 * time, which times of a freed span an entry could take, and in which order entries are served.
 * Whether a candidate time is really bookable is decided by the hold's own placement (claims,
 * working hours, time off, buffers), never here.
 */

/** `waitlist_offer_minutes`: how long an offer's hold lives (5..1440, default 30). */
export const WAITLIST_OFFER_MINUTES = { min: 5, max: 1440, default: 30 } as const;
export const DEFAULT_WAITLIST_OFFER_MINUTES = WAITLIST_OFFER_MINUTES.default;

/** Candidate starts inside a freed span are this far apart, and at most this many are tried per entry. */
export const CANDIDATE_STEP_MINUTES = 15;
export const MAX_CANDIDATES_PER_ENTRY = 4;
/** Per service, at most this many of the oldest waiting entries are read for one freed time. */
export const WAITING_ENTRIES_READ = 50;
/** At most this many offers are tried (placements) for one freed time before it is left unoffered. */
export const MAX_OFFER_TRIES = 10;

export type EntryStatus = 'waiting' | 'offered' | 'booked' | 'expired' | 'cancelled';

/** An entry's status as answered: a waiting entry past its `expires_at` is `expired` (decided on read). */
export const entryStatus = (entry: { status: EntryStatus; expires_at: string | null }, now: number): EntryStatus =>
  entry.status === 'waiting' && entry.expires_at !== null && Date.parse(entry.expires_at) <= now
    ? 'expired'
    : entry.status;

/** A freed time: a provider's held time that came free, named by its cause. */
export interface FreedSpan extends TimeSpan {
  id: string;
  medspaId: string;
  providerId: string;
  serviceId: string;
}

type Claimant = Buffers & {
  id: string;
  medspa_id: string;
  service_id: string;
  provider_id: string;
  scheduled_at: string;
  end_at: string;
};

const spanOf = (claimant: Claimant, id: string): FreedSpan => ({
  id,
  medspaId: claimant.medspa_id,
  providerId: claimant.provider_id,
  serviceId: claimant.service_id,
  ...heldInterval({ start: claimant.scheduled_at, end: claimant.end_at }, claimant),
});

/** Statuses that free the time (cancel, no-show); completion uses it. */
const FREEING: readonly AppointmentStatus[] = ['cancelled', 'no_show'];

/**
 * The time an appointment change frees: an active appointment cancelled, marked no-show, deleted,
 * or moved (another time or provider). Named by the appointment and the version that freed it, so
 * a redelivered record names the same freed time.
 */
export function freedByAppointment(
  before: (Claimant & { status: AppointmentStatus; version: number }) | null,
  after: (Claimant & { status: AppointmentStatus; version: number }) | null,
): FreedSpan | null {
  if (!before || !isActive(before.status)) return null;
  if (!after) return spanOf(before, `${before.id}#deleted`);
  const moved =
    after.scheduled_at !== before.scheduled_at ||
    after.end_at !== before.end_at ||
    after.provider_id !== before.provider_id;
  if (FREEING.includes(after.status) || (isActive(after.status) && moved)) {
    return spanOf(before, `${before.id}#v${after.version}`);
  }
  return null;
}

/** The time a hold frees when released (`release`) or when it expires (`expiry`). */
export const freedByHold = (hold: Claimant, cause: 'release' | 'expiry'): FreedSpan =>
  spanOf(hold, `${hold.id}#${cause}`);

/** What matching needs of an entry. */
export interface Waiting {
  id: string;
  service_id: string;
  provider_ids: string[] | null;
  windows: TimeSpan[];
  expires_at: string | null;
  created_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The client times an entry could take in a freed span on its provider, earliest first: each
 * window's overlap with the span (and with the future), stepped by CANDIDATE_STEP_MINUTES, the
 * whole client time inside both; at most MAX_CANDIDATES_PER_ENTRY. None when the provider is not
 * among the entry's (when it names any), or the entry has expired.
 */
export function candidateStarts(
  entry: Waiting,
  freed: Pick<FreedSpan, 'start' | 'end' | 'providerId'>,
  durationMinutes: number,
  now: number,
): string[] {
  if (entry.provider_ids && !entry.provider_ids.includes(freed.providerId)) return [];
  if (entry.expires_at !== null && Date.parse(entry.expires_at) <= now) return [];
  const length = durationMinutes * 60_000;
  const step = CANDIDATE_STEP_MINUTES * 60_000;
  const starts: string[] = [];
  const windows = [...entry.windows].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  for (const window of windows) {
    const from = Math.max(Date.parse(window.start), Date.parse(freed.start), now);
    const to = Math.min(Date.parse(window.end), Date.parse(freed.end));
    for (let start = from; start + length <= to; start += step) {
      if (!starts.includes(iso(start))) starts.push(iso(start));
      if (starts.length >= MAX_CANDIDATES_PER_ENTRY) return starts;
    }
  }
  return starts;
}

/** Entries in serving order: oldest first (creation time, then id). */
export const servingOrder = <E extends Pick<Waiting, 'created_at' | 'id'>>(entries: readonly E[]): E[] =>
  [...entries].sort((a, b) =>
    a.created_at === b.created_at ? a.id.localeCompare(b.id) : a.created_at.localeCompare(b.created_at),
  );

/**
 * The entries a freed time may go to, in serving order, each with its candidate starts: not
 * offered this freed time before, of a service the provider is certified for (`durations` holds
 * exactly those services' durations), and with at least one candidate.
 */
export function fittingEntries<E extends Waiting>(
  entries: readonly E[],
  freed: Pick<FreedSpan, 'start' | 'end' | 'providerId'>,
  context: { durations: ReadonlyMap<string, number>; offeredBefore: readonly string[]; now: number },
): { entry: E; starts: string[] }[] {
  return servingOrder(entries)
    .filter((entry) => !context.offeredBefore.includes(entry.id))
    .flatMap((entry) => {
      const duration = context.durations.get(entry.service_id);
      if (duration === undefined) return [];
      const starts = candidateStarts(entry, freed, duration, context.now);
      return starts.length ? [{ entry, starts }] : [];
    });
}

/** An entry as changed by `fields`, its version and time moved on. */
export const entryChanged = (
  entry: WaitlistEntryRecord,
  fields: Partial<WaitlistEntryRecord>,
  at: string,
): WaitlistEntryRecord => ({ ...entry, ...fields, version: entry.version + 1, updated_at: at });

/** A freed time offered to nobody again (its offer ended), its version moved on. */
export function freedReleased<F extends { offered_to?: string; version: number; updated_at: string }>(
  freed: F,
  at: string,
): F {
  const { offered_to: _ended, ...rest } = freed;
  return { ...rest, version: freed.version + 1, updated_at: at } as F;
}

/** An entry as answered: its status at `now` (a waiting one past `expires_at` is expired). */
export const presentEntry = (entry: WaitlistEntryRecord, now: Date): WaitlistEntry => ({
  id: entry.id,
  client_id: entry.client_id,
  service_id: entry.service_id,
  provider_ids: entry.provider_ids,
  windows: entry.windows,
  expires_at: entry.expires_at,
  status: entryStatus(entry, now.getTime()),
  offer: entry.offer
    ? {
        hold_id: entry.offer.hold_id,
        scheduled_at: entry.offer.scheduled_at,
        provider_id: entry.offer.provider_id,
        expires_at: entry.offer.expires_at,
      }
    : null,
  appointment_id: entry.appointment_id,
  version: entry.version,
  created_at: entry.created_at,
  updated_at: entry.updated_at,
});
