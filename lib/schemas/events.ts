import * as z from 'zod';
import { EVENT_TYPES, type EventType } from '../domain/events';
import { Appointment } from './appointments';
import { Consent } from './clients';
import { doc, Instant, OutId } from './common';
import { Payment } from './payments';
import { Product } from './products';
import { Client } from './resources';

/**
 * What webhook subscribers receive (API reference, webhooks and events): one envelope per event type, its `data.object`
 * the API's own response schema of the resource, the one lib/events/from-record.ts parses the
 * stream's items with. The OpenAPI document's `webhooks` section is built from these.
 */

const WebhookTest = z
  .object({
    webhook_id: OutId('webhook', 'The subscription tested.'),
    message: doc(z.string(), 'A fixed greeting.', 'A test event from medspa-api: your endpoint is reachable and can verify signatures.'),
  })
  .describe('The payload of a test delivery.');

/** The resource each event type carries as `data.object`. */
export const EVENT_OBJECTS = {
  'appointment.created': Appointment,
  'appointment.updated': Appointment,
  'appointment.status_changed': Appointment,
  'appointment.cancelled': Appointment,
  'appointment.completed': Appointment,
  'appointment.deleted': Appointment,
  'appointment.reminder': Appointment,
  'client.created': Client,
  'client.updated': Client,
  'client.deleted': Client,
  'payment.received': Payment,
  'consent.signed': Consent,
  'product.low_stock': Product,
  'webhook.test': WebhookTest,
} as const satisfies Record<EventType, z.ZodObject>;

/** Event types whose `data` carries `previous`: the old values of the fields that changed. */
export const EVENTS_WITH_PREVIOUS: ReadonlySet<EventType> = new Set([
  'appointment.updated',
  'appointment.status_changed',
  'appointment.cancelled',
  'appointment.completed',
  'client.updated',
  'product.low_stock',
]);

/** When each event is sent, for the document. */
export const EVENT_SUMMARIES: Record<EventType, string> = {
  'appointment.created': 'An appointment was booked',
  'appointment.updated': 'An appointment changed (time, resources, notes, price), not its status',
  'appointment.status_changed': 'An appointment moved to another status (cancel and completion included)',
  'appointment.cancelled': 'An appointment was cancelled (sent with appointment.status_changed)',
  'appointment.completed': 'An appointment was completed (sent with appointment.status_changed)',
  'appointment.deleted': 'An appointment was deleted (DELETE /v1/appointments/{id}): the object is the appointment as it was before the delete, with no previous',
  'appointment.reminder': 'reminder_lead_minutes before an active appointment, or on demand (POST .../reminders)',
  'client.created': 'A client was created',
  'client.updated': 'A client changed (not its visit and spend statistics)',
  'client.deleted': 'A client was deleted: the object is the anonymised client, with no previous',
  'payment.received': 'A payment was recorded',
  'consent.signed': 'A consent form was recorded',
  'product.low_stock': 'A stock adjustment took a product to or below its threshold (once per crossing)',
  'webhook.test': 'POST /v1/webhooks/{id}/test: sent to that subscription only',
};

const EXAMPLE_EVENT_ID = 'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b';

const eventEnvelope = <T extends EventType>(type: T) => {
  const object = EVENT_OBJECTS[type];
  const data = EVENTS_WITH_PREVIOUS.has(type)
    ? z.object({
        object,
        previous: object
          .partial()
          .describe('The old values of the fields that changed (null for a field that had none).'),
      })
    : z.object({ object });
  return z
    .object({
      id: doc(z.string().regex(/^evt_/), 'The event id, also the `webhook-id` header: the same on every delivery attempt, so dedupe on it.', EXAMPLE_EVENT_ID),
      type: doc(z.literal(type), 'The event type.', type),
      created_at: Instant('When it happened (UTC).'),
      medspa_id: OutId('practice', 'The practice it happened in.'),
      data: data.describe('`object`: the resource as GET shows it (after the change); `previous`, for changes: the old values of the fields that changed.'),
    })
    .describe(`${EVENT_SUMMARIES[type]}.`);
};

/** The envelope of every event type, by type. */
export const EVENT_ENVELOPES = Object.fromEntries([...EVENT_TYPES, 'webhook.test'].map((type) => [type, eventEnvelope(type as EventType)])) as {
  [T in EventType]: ReturnType<typeof eventEnvelope<T>>;
};

