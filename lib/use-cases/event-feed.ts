import { clock } from '../clock';
import { cursorScope, openCursor, sealCursor } from '../crypto/cursor';
import { readFeedEvent, readFeedPage } from '../db/event-feed';
import { FEED_RETENTION_DAYS, isFeedPosition, type FeedPosition } from '../domain/event-feed';
import type { EventType } from '../domain/events';
import { AppError } from '../errors';
import type { EventListQuery, FeedEvent, FeedPagination } from '../schemas/event-feed';

/**
 * The event feed (API reference, section 15; docs/decisions/0031-event-feed.md): a practice's
 * kept events after a cursor's place, oldest first; the cursor is never null.
 */

/**
 * A feed cursor is a place in the practice's feed, bound to the practice and the list only (not to
 * `types`: a place means the same under any filter), and valid as long as the events it follows
 * are kept, so an integrator back from days of downtime resumes where it stopped.
 */
const FEED_CURSOR_TTL_SECONDS = FEED_RETENTION_DAYS * 86_400;
const scopeOf = (medspaId: string) => cursorScope(medspaId, 'events');

const nowSeconds = () => Math.floor(clock().now().getTime() / 1000);

export interface FeedResult {
  data: FeedEvent[];
  pagination: FeedPagination;
}

export async function listEvents(medspaId: string, query: EventListQuery): Promise<FeedResult> {
  const scope = scopeOf(medspaId);
  const opened = openCursor(scope, query.cursor, isFeedPosition) as FeedPosition | undefined;
  const page = await readFeedPage(medspaId, {
    after: opened?.seq ?? 0,
    limit: query.limit,
    types: query.types as EventType[] | undefined,
    nowSeconds: nowSeconds(),
  });
  const position: FeedPosition = { seq: page.position };
  return {
    data: page.items.map((item) => item.event),
    pagination: { next_cursor: sealCursor(scope, position, FEED_CURSOR_TTL_SECONDS), has_more: page.hasMore },
  };
}

/** Event ids are `evt_` and 32 hex digits: anything else is no event (404, never a read). */
const EVENT_ID = /^evt_[0-9a-f]{32}$/;

export async function readEvent(medspaId: string, id: string): Promise<FeedEvent> {
  const kept = EVENT_ID.test(id) ? await readFeedEvent(medspaId, id, nowSeconds()) : null;
  if (!kept) throw new AppError('EVENT_NOT_FOUND');
  return kept.event;
}
