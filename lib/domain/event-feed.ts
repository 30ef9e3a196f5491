import type { ContractEvent } from './events';

/**
 * The event feed's rules (API reference, section 15; docs/decisions/0031-event-feed.md), pure:
 * what of an event is kept, for how long, and how a batch of events becomes keeping transactions.
 */

/** Events are kept this long after they happened (the table's TTL removes them). */
export const FEED_RETENTION_DAYS = 30;
const DAY_SECONDS = 86_400;

/** The TTL (epoch seconds) of an event that happened at `createdAt`. */
export const feedExpiry = (createdAt: string) =>
  Math.floor(Date.parse(createdAt) / 1000) + FEED_RETENTION_DAYS * DAY_SECONDS;

/**
 * One transaction takes at most 100 actions: the head's move plus two items per event (the event
 * at its place and its id), so 49 events.
 */
export const FEED_EVENTS_PER_TRANSACTION = 49;

/**
 * The envelope as the feed keeps and answers it: `id, type, created_at, medspa_id, data: { object,
 * previous? }`. What a webhook's `data` carries beside them (an online booking's `manage_token`)
 * is a bearer credential of the client's, sent only to the subscriptions that take the event:
 * the feed (readable by analysts, kept 30 days) keeps none of it.
 */
export const feedEventOf = (event: ContractEvent): ContractEvent => ({
  id: event.id,
  type: event.type,
  created_at: event.created_at,
  medspa_id: event.medspa_id,
  data: {
    object: event.data.object,
    ...(event.data.previous !== undefined ? { previous: event.data.previous } : {}),
  },
});

/**
 * A batch's events as keeping transactions: per practice, in the order given, each event once (a
 * batch may hold a record twice: the same id in one transaction would be refused), at most
 * FEED_EVENTS_PER_TRANSACTION per chunk. A practice's chunks are kept one after another.
 */
export function feedChunks(events: readonly ContractEvent[]): Map<string, ContractEvent[][]> {
  const byPractice = new Map<string, ContractEvent[]>();
  const seen = new Set<string>();
  for (const event of events) {
    const key = `${event.medspa_id}|${event.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byPractice.get(event.medspa_id) ?? [];
    list.push(feedEventOf(event));
    byPractice.set(event.medspa_id, list);
  }
  const chunks = new Map<string, ContractEvent[][]>();
  for (const [medspaId, list] of byPractice) {
    const parts: ContractEvent[][] = [];
    for (let i = 0; i < list.length; i += FEED_EVENTS_PER_TRANSACTION)
      parts.push(list.slice(i, i + FEED_EVENTS_PER_TRANSACTION));
    chunks.set(medspaId, parts);
  }
  return chunks;
}

/** A feed position sealed in a cursor: the last place read (0: before the first event). */
export interface FeedPosition {
  seq: number;
}

export const isFeedPosition = (value: unknown): value is FeedPosition =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  Number.isSafeInteger((value as FeedPosition).seq) &&
  (value as FeedPosition).seq >= 0;
