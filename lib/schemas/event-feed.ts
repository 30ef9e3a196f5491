import * as z from './zod';
import { EVENT_TYPES } from '../events/types';
import { commaList } from './appointments';
import { doc, EXAMPLE_ID, EXAMPLE_TIME, Instant, Limit, meta, OutId, schema } from './common';

/**
 * The event feed (API reference, section 15; docs/decisions/0031-event-feed.md): every event the
 * practice emitted in the last 30 days, oldest first, in the webhook envelope.
 */

const EXAMPLE_EVENT_ID = 'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b';

const TypeList = /* @__PURE__ */ schema(() =>
  doc(
    z.pipe(
      z.pipe(z.union([z.string(), z.array(z.string())]), z.transform(commaList)),
      z.pipe(
        z.array(z.enum(EVENT_TYPES as [string, ...string[]])),
        z.transform((types) => [...new Set(types)].sort()),
      ),
    ),
    `Only these event types: \`a,b\` or the parameter repeated (${EVENT_TYPES.join(', ')}). A page of a filtered feed may hold fewer than \`limit\` events (it reads a bounded stretch of the feed) while \`has_more\` is true: keep following \`next_cursor\`.`,
    'appointment.created,appointment.cancelled',
  ),
);

export const EventListQuery = /* @__PURE__ */ schema(() =>
  z.object({
    limit: Limit,
    cursor: doc(
      z.optional(z.string().check(z.maxLength(2048))),
      'The `pagination.next_cursor` of an earlier page: the feed goes on after the last event that page read (opaque; bound to the practice, not to `types`, so a reader may change its filter and keep its place; valid 30 days). Omit to start at the oldest event kept.',
      'AcX3q0vYb2tq9mJ0dG9rZW4tZXhhbXBsZQ',
    ),
    types: z.optional(TypeList),
  }),
);
export type EventListQuery = z.output<typeof EventListQuery>;

export const EventParams = /* @__PURE__ */ schema(() =>
  z.object({
    // The pattern is what an event id looks like, not a check: any other id is 404 EVENT_NOT_FOUND.
    id: meta(z.string(), {
      description: 'The event id (`evt_` + 32 hex digits, the `webhook-id` of its deliveries).',
      pattern: '^evt_[0-9a-f]{32}$',
      examples: [EXAMPLE_EVENT_ID],
    }),
  }),
);

/** One kept event: the webhook envelope, its `data.object` the resource as the event carried it. */
export const FeedEvent = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: doc(
        z.string(),
        'The event id: also the `webhook-id` of its deliveries, so one dedupe serves both.',
        EXAMPLE_EVENT_ID,
      ),
      type: doc(z.enum(EVENT_TYPES as [string, ...string[]]), 'The event type.', 'appointment.status_changed'),
      created_at: Instant('When it happened (UTC).', EXAMPLE_TIME.created),
      medspa_id: OutId('practice', 'The practice it happened in.'),
      data: doc(
        z.object({
          object: doc(
            z.record(z.string(), z.unknown()),
            'The resource as the event carried it (see the `webhooks` section for each type).',
            {
              id: EXAMPLE_ID.appointment,
              status: 'confirmed',
            },
          ),
          previous: z.optional(
            doc(z.record(z.string(), z.unknown()), 'For changes: the old values of the fields that changed.', {
              status: 'scheduled',
            }),
          ),
        }),
        "As a webhook delivery's `data`, without an online booking's `manage_token` (a credential of the client's, sent only to the subscriptions that take the event).",
      ),
    }),
    {
      description:
        'An event as its webhook delivery carries it (the `webhooks` section describes each type), kept 30 days whether or not a subscription took it.',
      id: 'FeedEvent',
    },
  ),
);
export type FeedEvent = z.output<typeof FeedEvent>;

/** The feed's `pagination`: a cursor that is never null (the place to poll from) and whether more are kept after it; no `total`. */
export const FeedPagination = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      next_cursor: doc(
        z.string(),
        'Never null: the place after the last event this page read. On the last page (empty or not) it is the cursor to poll from later; a cursor taken from an empty feed resumes at its first event.',
        'AcX3q0vYb2tq9mJ0dG9rZW4tZXhhbXBsZQ',
      ),
      has_more: doc(
        z.boolean(),
        'Whether events are kept after `next_cursor` now: true, fetch the next page at once; false, you are caught up (poll later with `next_cursor`).',
        false,
      ),
    }),
    {
      description: 'Where a reader of the event feed stands (no `total`: the feed grows while it is read).',
      id: 'FeedPagination',
    },
  ),
);
export type FeedPagination = z.output<typeof FeedPagination>;
