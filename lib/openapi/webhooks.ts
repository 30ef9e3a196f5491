import * as z from '../schemas/zod';
import { meta } from '../schemas/common';
import { createSchema, type CreateDocumentOptions, type ZodOpenApiPathsObject } from 'zod-openapi';
import { EVENT_ENVELOPES, EVENT_SUMMARIES } from '../schemas/events';
import { PROSE } from './prose';
import { fill } from './text';

/**
 * The document's `webhooks` section (API reference, webhooks and events): one POST per event
 * type, its body the event's envelope schema (a component each), signed the Standard Webhooks way.
 * zod-openapi renders every request body as a request (fields with defaults optional); these are
 * what the server sends, so their schemas are rendered apart, as responses are.
 */

type EventType = keyof typeof EVENT_ENVELOPES;

/** `appointment.status_changed` -> AppointmentStatusChangedEvent. */
const componentName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('')}Event`;

/** Each envelope, a component under its event's name. */
const EVENT_COMPONENTS = z.object(
  Object.fromEntries(
    Object.entries(EVENT_ENVELOPES).map(([type, envelope]) => [type, meta(envelope, { id: componentName(type) })]),
  ),
);

/** The event envelopes as rendered output, with the components they refer to. */
export const eventComponents = (options: CreateDocumentOptions) =>
  createSchema(EVENT_COMPONENTS, { io: 'output', opts: options }).components;

const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header' as const,
    required: true,
    description: 'The event id (also `id` in the body): the same on every attempt of one event. Dedupe on it.',
    schema: { type: 'string' as const, examples: ['evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b'] },
  },
  {
    name: 'webhook-timestamp',
    in: 'header' as const,
    required: true,
    description: 'Unix seconds of this attempt; refuse ones far from your clock (the libraries allow 5 minutes).',
    schema: { type: 'string' as const, pattern: '^[0-9]+$', examples: ['1795442709'] },
  },
  {
    name: 'webhook-signature',
    in: 'header' as const,
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256(secret, "{webhook-id}.{webhook-timestamp}.{body}")>`; for 24 h after a secret rotation two, space-separated. Verify with any Standard Webhooks library (`standardwebhooks` on npm) and the subscription\'s `whsec_` secret.',
    schema: { type: 'string' as const, examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] },
  },
];

export function webhooksOf(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    (Object.keys(EVENT_ENVELOPES) as EventType[]).map((type) => [
      type,
      {
        post: {
          operationId: `on${componentName(type).replace(/Event$/, '')}`,
          summary: EVENT_SUMMARIES[type],
          description: fill(PROSE['webhook-delivery'], { type }).trim(),
          tags: ['events'],
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(type)}` } } },
          },
          responses: {
            '200': { description: 'Received (any 2xx).' },
            '400': { description: 'Refused (any non-2xx, or no answer within 10 s): a failed attempt, retried later.' },
          },
        },
      },
    ]),
  );
}
