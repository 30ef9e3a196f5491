import * as z from './zod';
import { ALL_EVENTS, isSubscribableEvent, MAX_URL_LENGTH } from '../domain/webhooks';
import { EVENT_TYPES } from '../events/types';
import { doc, IdOf, Instant, meta, OutId, PageQuery, schema, Text, Timestamps } from './common';

/** Webhook subscriptions and their delivery log (API reference, webhooks and events). */

const WebhookId = /* @__PURE__ */ schema(() => IdOf('webhook', 'The subscription id.'));
export const WebhookParams = /* @__PURE__ */ schema(() => z.object({ id: WebhookId }));
export const WebhookDeliveryParams = /* @__PURE__ */ schema(() =>
  z.object({ id: WebhookId, delivery_id: IdOf('delivery', 'The delivery log entry id.') }),
);

const EVENT_NAMES = /* @__PURE__ */ schema(() => `${EVENT_TYPES.join(', ')}, or "*" for all`);

const Url = /* @__PURE__ */ schema(() =>
  doc(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
    'https:// only (the local server also takes http://localhost and http://127.0.0.1). Hosts resolving to private, loopback or link-local addresses are refused.',
    'https://hooks.glow-booking.example/medspa',
  ),
);

/** Event names from the API reference's webhooks and events, or `["*"]`; repeats are dropped. */
const Events = /* @__PURE__ */ schema(() =>
  doc(
    z.pipe(
      z
        .array(
          doc(z.string(), 'An event type, or "*".', 'appointment.created').check(
            z.refine(isSubscribableEvent, {
              error: (issue) => `unknown event type ${JSON.stringify(issue.input)}; expected one of ${EVENT_NAMES}`,
            }),
          ),
        )
        .check(
          z.minLength(1),
          z.maxLength(EVENT_TYPES.length),
          z.refine((events) => !events.includes(ALL_EVENTS) || events.every((event) => event === ALL_EVENTS), {
            error: '"*" stands alone: ["*"] takes every event type',
          }),
        ),
      z.transform((events) => [...new Set(events)]),
    ),
    `Event types to receive: ${EVENT_NAMES}.`,
    ['appointment.created', 'appointment.cancelled'],
  ),
);

const Description = /* @__PURE__ */ schema(() =>
  doc(z.nullable(Text(500)), 'A label for people (at most 500 characters).', 'Booking site sync'),
);

export const CreateWebhookBody = /* @__PURE__ */ schema(() =>
  doc(z.strictObject({ url: Url, events: Events, description: z.optional(Description) }), 'A new subscription.'),
);
export type CreateWebhookInput = z.output<typeof CreateWebhookBody>;

export const UpdateWebhookBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        url: Url,
        events: Events,
        description: Description,
        enabled: doc(
          z.boolean(),
          'false stops deliveries; true re-enables (also one the service disabled), clearing disabled_reason.',
          true,
        ),
      }),
    ),
    'Any subset of the fields.',
  ),
);
export type UpdateWebhookInput = z.output<typeof UpdateWebhookBody>;

export const Webhook = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('webhook', 'The subscription id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      url: doc(z.string(), 'Where events are POSTed.', 'https://hooks.glow-booking.example/medspa'),
      events: doc(
        z.array(doc(z.string(), 'An event type, or "*".', 'appointment.created')),
        'Event types it receives (["*"]: all).',
        ['appointment.created', 'appointment.cancelled'],
      ),
      description: doc(z.nullable(z.string()), 'A label for people.', 'Booking site sync'),
      enabled: doc(z.boolean(), 'Whether deliveries are made.', true),
      disabled_reason: doc(
        z.nullable(z.string()),
        'Why the service disabled it (every delivery failed for 3 days); null otherwise.',
        null,
      ),
      first_failure_at: meta(
        z.nullable(Instant('The first failed attempt since the last success; null while deliveries succeed.')),
        { examples: [null] },
      ),
      last_success_at: z.nullable(Instant('The last successful attempt (to the hour).', '2026-11-23T14:00:00.000Z')),
      ...Timestamps,
    }),
    { description: 'A webhook subscription.', id: 'Webhook' },
  ),
);
export type Webhook = z.output<typeof Webhook>;

export const WebhookWithSecret = /* @__PURE__ */ schema(() =>
  meta(
    z.extend(Webhook, {
      secret: doc(
        z.string(),
        'The signing secret (`whsec_` + base64), shown only here: verify deliveries with any Standard Webhooks library. After a rotation the previous secret also signs for 24 h.',
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      ),
    }),
    { description: 'A subscription with its signing secret (shown only in this answer).', id: 'WebhookWithSecret' },
  ),
);
export type WebhookWithSecret = z.output<typeof WebhookWithSecret>;

export const WebhookDelivery = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('delivery', 'The log entry id.'),
      event_id: doc(
        z.string(),
        'Also the `webhook-id` header: the same for every attempt of one event, so receivers dedupe on it.',
        'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b',
      ),
      event_type: doc(z.string(), 'The event type.', 'appointment.created'),
      attempt: doc(z.number().check(z.int()), 'Attempt number, from 1.', 1),
      status: doc(
        z.enum(['pending', 'succeeded', 'failed']),
        'pending: scheduled for next_attempt_at; succeeded: 2xx within 10 s; failed: anything else.',
        'succeeded',
      ),
      response_status: doc(
        z.nullable(z.number().check(z.int())),
        "The receiver's HTTP status; null when none came.",
        200,
      ),
      duration_ms: doc(z.nullable(z.number().check(z.int())), 'How long the attempt took.', 84),
      error: doc(z.nullable(z.string()), 'Why it failed; null on success.', null),
      next_attempt_at: meta(
        z.nullable(
          Instant(
            'pending: when it runs; failed: when the retry runs (null when given up, or for tests and manual retries).',
          ),
        ),
        { examples: [null] },
      ),
      created_at: Instant('When the attempt was logged.'),
    }),
    { description: 'One delivery attempt.', id: 'WebhookDelivery' },
  ),
);
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

export const WebhookListQuery = PageQuery;
export const WebhookDeliveryListQuery = PageQuery;
