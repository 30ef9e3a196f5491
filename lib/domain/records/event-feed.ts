import type { ContractEvent } from '../events';

/**
 * The event feed (API reference, section 15; docs/decisions/0031-event-feed.md): every contract
 * event the stream worker makes, kept at the next place of its practice's sequence for 30 days.
 */

/** One kept event at its place (`seq`, from 1) in its practice's feed; `expires_at` is the table's TTL (epoch seconds). */
export interface FeedEventRecord {
  medspa_id: string;
  seq: number;
  expires_at: number;
  /** The envelope as the feed answers it (never a manage token: lib/domain/event-feed.ts `feedEventOf`). */
  event: ContractEvent;
}

/** Which place an event id holds: written with the event, under attribute_not_exists, so an event is kept once. */
export interface FeedEventIdRecord {
  medspa_id: string;
  event_id: string;
  seq: number;
  expires_at: number;
}

/** The last place handed out in a practice's feed: each keeping transaction moves it on, conditioned on the value it read. */
export interface FeedHeadRecord {
  medspa_id: string;
  seq: number;
}
