import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import * as e from '../schemas/event-feed';

export const listEvents = /* @__PURE__ */ route('listEvents', () => ({
  method: 'GET',
  path: '/v1/events',
  group: 'event-feed',
  summary:
    'Every event of the last 30 days, oldest first, whether or not a subscription took it: catch up after downtime, or poll with `next_cursor` (never null)',
  auth: ALLOW.events,
  query: e.EventListQuery,
  response: list(e.FeedEvent),
  pagination: e.FeedPagination,
  // The feed's head, then its places after the cursor (lib/db/event-feed.ts).
  reads: ['eventFeed'],
}));

export const getEvent = /* @__PURE__ */ route('getEvent', () => ({
  method: 'GET',
  path: '/v1/events/{id}',
  group: 'event-feed',
  summary: 'One event of the last 30 days, by its id (the `webhook-id` of its deliveries)',
  auth: ALLOW.events,
  params: e.EventParams,
  response: e.FeedEvent,
  errors: ['EVENT_NOT_FOUND'],
  // Its id's place, then the event at that place.
  reads: ['eventFeed', 'eventIds'],
}));

/**
 * The event feed (API reference, section 15; docs/decisions/0031-event-feed.md): what the stream
 * worker keeps of every event, read by admins, managers and analysts.
 */
export const eventRoutes = /* @__PURE__ */ defineRoutes({ listEvents, getEvent });
