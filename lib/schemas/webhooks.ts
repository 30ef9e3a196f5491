import * as z from 'zod';
import { ALL_EVENTS, isSubscribableEvent, MAX_URL_LENGTH } from '../domain/webhooks';
import { EVENT_TYPES } from '../events/types';
import { Id, PageQuery, Timestamps } from './common';

/** Webhook subscriptions and their delivery log (contract 7). */

export const WebhookParams = z.object({ id: Id });
export const WebhookDeliveryParams = z.object({ id: Id, delivery_id: Id });

const EVENT_NAMES = `${EVENT_TYPES.join(', ')}, or "*" for all`;

const Url = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .describe('https:// only (the local server also takes http://localhost and http://127.0.0.1). Hosts resolving to private, loopback or link-local addresses are refused.');

/** Event names from contract 7, or `["*"]`; repeats are dropped. */
const Events = z
  .array(z.string().refine(isSubscribableEvent, { error: (issue) => `unknown event type ${JSON.stringify(issue.input)}; expected one of ${EVENT_NAMES}` }))
  .min(1)
  .max(EVENT_TYPES.length)
  .refine((events) => !events.includes(ALL_EVENTS) || events.every((event) => event === ALL_EVENTS), { error: '"*" stands alone: ["*"] takes every event type' })
  .transform((events) => [...new Set(events)])
  .describe(`Event types to receive: ${EVENT_NAMES}.`);

const Description = z.string().trim().max(500).nullable();

export const CreateWebhookBody = z.object({ url: Url, events: Events, description: Description.optional() }).strict();
export type CreateWebhookInput = z.output<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({
    url: Url,
    events: Events,
    description: Description,
    enabled: z.boolean().describe('false stops deliveries; true re-enables (also one the service disabled), clearing disabled_reason.'),
  })
  .partial()
  .strict();
export type UpdateWebhookInput = z.output<typeof UpdateWebhookBody>;

export const Webhook = z.object({
  id: z.string(),
  medspa_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable().describe('Why the service disabled it (every delivery failed for 3 days); null otherwise.'),
  first_failure_at: z.string().nullable().describe('The first failed attempt since the last success; null while deliveries succeed.'),
  last_success_at: z.string().nullable().describe('The last successful attempt (to the hour).'),
  ...Timestamps,
});
export type Webhook = z.output<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({
  secret: z
    .string()
    .describe('The signing secret (`whsec_` + base64), shown only here: verify deliveries with any Standard Webhooks library. After a rotation the previous secret also signs for 24 h.'),
});
export type WebhookWithSecret = z.output<typeof WebhookWithSecret>;

export const WebhookDelivery = z.object({
  id: z.string(),
  event_id: z.string().describe('Also the `webhook-id` header: the same for every attempt of one event, so receivers dedupe on it.'),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.enum(['pending', 'succeeded', 'failed']).describe('pending: scheduled for next_attempt_at; succeeded: 2xx within 10 s; failed: anything else'),
  response_status: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable().describe('pending: when it runs; failed: when the retry runs (null when given up, or for tests and manual retries)'),
  created_at: z.string(),
});
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

export const WebhookListQuery = PageQuery;
export const WebhookDeliveryListQuery = PageQuery;
