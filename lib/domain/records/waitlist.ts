import type { ClientContact } from './clients';
import type { Versioned } from './common';

/** The waitlist (API reference, waitlist; docs/decisions/0032). */

/** A span of time, ISO instants, `[start, end)`. */
export interface TimeSpan {
  start: string;
  end: string;
}

/** An entry's current offer: a hold on a time of a freed span (`freed_id`). */
export interface WaitlistOfferRecordPart {
  hold_id: string;
  scheduled_at: string;
  provider_id: string;
  expires_at: string;
  freed_id: string;
}

/**
 * A client waiting for a time of a service. `status` is what was written; `expired` is also
 * computed on read for a waiting entry past `expires_at` (lib/domain/waitlist.ts `entryStatus`).
 */
export interface WaitlistEntryRecord extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  service_id: string;
  /** Null: any certified provider. */
  provider_ids: string[] | null;
  windows: TimeSpan[];
  expires_at: string | null;
  status: 'waiting' | 'offered' | 'booked' | 'expired' | 'cancelled';
  offer: WaitlistOfferRecordPart | null;
  appointment_id: string | null;
}

/** A freed time: the provider's held time that came free, whom it is offered to now and whom it was offered to. */
export interface WaitlistFreedRecord extends Versioned {
  medspa_id: string;
  id: string;
  provider_id: string;
  /** The service of what freed it (its entries are read first). */
  service_id: string;
  start: string;
  end: string;
  /** The entry holding an offer of it now (absent: none). */
  offered_to?: string;
  /** Every entry it was offered to, in order. */
  offered: string[];
}

/**
 * An offer, by its hold's id: written once, in the offer's own transaction. It tells a released or
 * expired hold for an offer's, and the stream turns it into `waitlist.offer_created` (the entry
 * with its offer and the client's contact details). Gone (TTL) a day after the offer expires.
 */
export interface WaitlistOfferRecord {
  medspa_id: string;
  hold_id: string;
  entry_id: string;
  freed_id: string;
  entry: WaitlistEntryRecord;
  client: ClientContact;
  created_at: string;
}

/** A hold or an entry due to expire in a minute (the waitlist sweep's work list). */
export interface WaitlistDueRecord {
  medspa_id: string;
  kind: 'hold' | 'entry';
  id: string;
  due_minute: string;
}
