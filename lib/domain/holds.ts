/**
 * Holds (API reference, holds): a hold claims its held time exactly as an appointment does, until
 * `expires_at`. Expiry is a property of the claim, decided wherever a claim is read: an entry past
 * its `expires_at` blocks nothing, with no sweep, and any write to its bucket prunes it.
 */

/** `expires_in_seconds` of a staff hold: 60..1800, default 600; public holds live 600 s. */
export const HOLD_SECONDS = { min: 60, max: 1800, default: 600, public: 600 } as const;

/** A client IP holds at most this many active public holds per practice. */
export const MAX_PUBLIC_HOLDS_PER_IP = 3;

/** A hold item stays readable (as `expired`, `released` or `confirmed`) this long past its expiry, then the table's TTL removes it. */
export const HOLD_ITEM_RETENTION_SECONDS = 86_400;

export type HoldState = 'active' | 'confirmed' | 'released';
export type HoldStatus = HoldState | 'expired';

const ms = (iso: string) => Date.parse(iso);

/** Whether a hold's `expires_at` has passed at `now` (epoch ms): from that instant it holds nothing. */
export const isExpiredAt = (expiresAt: string, now: number): boolean => ms(expiresAt) <= now;

/** A claim entry blocks at `now` unless it is a hold's past its `expires_at`. */
export const isLiveEntry = (entry: { expires_at?: string }, now: number): boolean =>
  entry.expires_at === undefined || !isExpiredAt(entry.expires_at, now);

/** The ids of a bucket's entries that hold nothing any more at `now`: pruned by any write to the bucket. */
export const expiredEntryIds = (entries: readonly { appointment_id: string; expires_at?: string }[], now: number) =>
  entries.filter((entry) => !isLiveEntry(entry, now)).map((entry) => entry.appointment_id);

/** A hold's status as answered: an active one past `expires_at` is `expired`. */
export const holdStatus = (hold: { status: HoldState; expires_at: string }, now: number): HoldStatus =>
  hold.status === 'active' && isExpiredAt(hold.expires_at, now) ? 'expired' : hold.status;

/** What a confirm or a release of a hold in this status answers, or null when it may go on. */
export const holdRefusal = (status: HoldStatus): 'HOLD_EXPIRED' | 'HOLD_NOT_ACTIVE' | null =>
  status === 'expired' ? 'HOLD_EXPIRED' : status === 'active' ? null : 'HOLD_NOT_ACTIVE';

/** The entries of a per-IP ledger (hold id -> expires_at) still active at `now`. */
export const liveHolds = (expiries: Readonly<Record<string, string>>, now: number): Record<string, string> =>
  Object.fromEntries(Object.entries(expiries).filter(([, expiresAt]) => !isExpiredAt(expiresAt, now)));
