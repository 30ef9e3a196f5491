import { feedChunks, feedExpiry } from '../domain/event-feed';
import type { ContractEvent, EventType } from '../domain/events';
import type { FeedEventRecord } from '../domain/records';
import { linearJitter, retry } from '../retry';
import { tableName } from './client';
import { feedEventCodec, feedEventIdCodec, feedHeadCodec } from './codecs';
import { DataFailure } from './failure';
import { itemId, readItem, readItems } from './key-reads';
import { eventFeedHeadKey, eventFeedKey, eventFeedPk, eventFeedSk, eventIdKey } from './keys';
import { newItemAction } from './put-new';
import { above, oneOf, queryStep, where, type KeyQuery } from './query';
import { transact, type NamedAction } from './transact';

/**
 * The event feed's items (API reference, section 15; docs/decisions/0031-event-feed.md). A
 * practice's events take places 1, 2, 3, ... in the order the stream worker keeps them: each
 * keeping transaction moves the practice's head from the value it read to read + n (conditioned on
 * it) and puts the n events at read + 1 .. read + n, each with its id item under
 * attribute_not_exists. So place k + 1 commits only after place k, and an event is kept once
 * however often the stream redelivers it.
 */

/** Tries of one chunk: a lost race for the head re-reads it; a redelivered event is dropped. */
const KEEP_ATTEMPTS = 10;

/** The last place handed out in a practice's feed (0: nothing kept yet), strongly consistent. */
export async function readFeedHead(medspaId: string): Promise<number> {
  return feedHeadCodec.fromItem(await readItem(eventFeedHeadKey(medspaId)))?.seq ?? 0;
}

type KeepAction = NamedAction<'head' | 'place'> | (NamedAction<'id'> & { eventId: string });

function keepingActions(medspaId: string, head: number, events: readonly ContractEvent[]): KeepAction[] {
  const next = head + events.length;
  const headItem = feedHeadCodec.toItem({ medspa_id: medspaId, seq: next });
  return [
    {
      name: 'head',
      action: {
        Put: {
          TableName: tableName(),
          Item: headItem,
          ...(head === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#seq = :read',
                ExpressionAttributeNames: { '#seq': 'seq' },
                ExpressionAttributeValues: { ':read': head },
              }),
        },
      },
    },
    ...events.flatMap((event, index): KeepAction[] => {
      const seq = head + index + 1;
      const expires_at = feedExpiry(event.created_at);
      return [
        {
          name: 'id',
          eventId: event.id,
          action: newItemAction(feedEventIdCodec.toItem({ medspa_id: medspaId, event_id: event.id, seq, expires_at })),
        },
        {
          name: 'place',
          action: newItemAction(feedEventCodec.toItem({ medspa_id: medspaId, seq, expires_at, event })),
        },
      ];
    }),
  ];
}

/** The events of `events` whose id is kept already (a consistent read of their id items). */
async function alreadyKept(medspaId: string, events: readonly ContractEvent[]): Promise<Set<string>> {
  const keys = events.map((event) => eventIdKey(medspaId, event.id));
  const found = await readItems(keys);
  return new Set(events.filter((_, index) => found.has(itemId(keys[index]!))).map((event) => event.id));
}

/** One chunk of one practice's events (at most FEED_EVENTS_PER_TRANSACTION), in one transaction. */
async function keepChunk(medspaId: string, events: readonly ContractEvent[]): Promise<void> {
  let pending = events;
  await retry<void>(
    async () => {
      if (pending.length === 0) return { done: undefined };
      const outcome = await transact(keepingActions(medspaId, await readFeedHead(medspaId), pending));
      if (outcome.ok) return { done: undefined };
      // A redelivered record: drop every event already kept (DynamoDB may name only some of them).
      if (outcome.failed.some((failure) => failure.name === 'id')) {
        const kept = await alreadyKept(medspaId, pending);
        pending = pending.filter((event) => !kept.has(event.id));
        return { retry: 'now' };
      }
      // Another worker (another shard) took the next places first: read the head again.
      return { retry: 'later' };
    },
    {
      attempts: KEEP_ATTEMPTS,
      delayMs: linearJitter(20),
      exhausted: () => {
        throw new DataFailure('busy', `the event feed of ${medspaId} stayed busy: the batch is retried`);
      },
    },
  );
}

/**
 * Keeps a batch's events in their practices' feeds: each practice's chunks one after another (its
 * order), the practices in parallel. Throws when any is not kept, so the batch is retried (its
 * kept events are then dropped as already kept).
 */
export async function keepInFeed(events: readonly ContractEvent[]): Promise<void> {
  await Promise.all(
    [...feedChunks(events)].map(async ([medspaId, chunks]) => {
      for (const chunk of chunks) await keepChunk(medspaId, chunk);
    }),
  );
}

/** What one page of the feed reads. */
export interface FeedPageRequest {
  /** The last place the reader has read (0: from the start). */
  after: number;
  limit: number;
  types?: readonly EventType[];
  /** Epoch seconds: events past their 30 days are not answered, even before TTL removes them. */
  nowSeconds: number;
}

export interface FeedPage {
  items: FeedEventRecord[];
  /** The last place this page read past (its cursor's position): never before `after`. */
  position: number;
  /** Whether kept events lie after `position` (a filtered page may end short with more after it). */
  hasMore: boolean;
}

/** Items a filtered page's Query evaluates per call (DynamoDB's 1 MB per call bounds it too). */
const FILTERED_STEP = 500;
/** Query calls a page makes at most: a page of a rare type stays bounded, and says so with `hasMore`. */
const MAX_STEPS = 3;

const seqOf = (sk: unknown) => Number.parseInt(String(sk), 10);

/**
 * One page of a practice's feed after place `after`. The head is read first (strongly consistent)
 * and the Query stops at it: every place up to the head belongs to a committed transaction, so the
 * consistent Query sees all of them, and a place after the page's position can only be filled by
 * a transaction that had not committed yet, which takes a place after the head. Unfiltered: one
 * GetItem and one Query.
 */
export async function readFeedPage(medspaId: string, request: FeedPageRequest): Promise<FeedPage> {
  const head = await readFeedHead(medspaId);
  if (request.after >= head) return { items: [], position: request.after, hasMore: false };
  const query: KeyQuery = {
    partition: eventFeedPk(medspaId),
    sort: { op: 'between', from: eventFeedSk(request.after + 1), to: eventFeedSk(head) },
    consistent: true,
    filter: where<{ type: EventType; expires_at: number }>({
      type: request.types ? oneOf(request.types) : undefined,
      expires_at: above(request.nowSeconds),
    }),
  };
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  let position = head;
  for (let step = 1; ; step += 1) {
    const read = await queryStep(query, {
      limit: request.types ? FILTERED_STEP : request.limit - items.length,
      startKey,
    });
    items.push(...read.items);
    startKey = read.lastKey;
    // More than the page (a filtered step): the page ends at its last event.
    if (items.length > request.limit) {
      items.length = request.limit;
      position = seqOf(items[items.length - 1]!.sk);
      break;
    }
    // Read up to the head: the page ends there, whatever the filter left out.
    if (!startKey) break;
    // Full, or read as far as a page may: it ends at the last place read (filtered-out ones included).
    if (items.length === request.limit || step >= MAX_STEPS) {
      position = seqOf(startKey.sk);
      break;
    }
  }
  return {
    items: items.map((item) => feedEventCodec.fromItem(item)!),
    position,
    hasMore: position < head,
  };
}

/** A kept event by its id, or null (never kept, another practice's, or past its 30 days). */
export async function readFeedEvent(
  medspaId: string,
  eventId: string,
  nowSeconds: number,
): Promise<FeedEventRecord | null> {
  const place = feedEventIdCodec.fromItem(await readItem(eventIdKey(medspaId, eventId)));
  if (!place || place.expires_at <= nowSeconds) return null;
  return feedEventCodec.fromItem(await readItem(eventFeedKey(medspaId, place.seq)));
}
