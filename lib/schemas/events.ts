import * as z from 'zod';
import { Appointment } from './appointments';
import { Consent } from './clients';
import { doc, Instant, OutId } from './common';
import { Payment } from './payments';
import { Product } from './products';
import { Client } from './resources';

/**
 * THE event table (API reference, webhooks and events): one row per event type. Everything else
 * derives from it: the type list (EVENT_TYPES, the webhook subscription enum), the envelope
 * schemas below (and so the OpenAPI document's `webhooks` section), the bus rules
 * (lib/events/rules.ts) and which stream records are decoded for events (lib/events/from-record.ts).
 *
 * Adding an event type takes one row here and one mapping: the row names the stored kind whose
 * changes emit it (`source`, a codec's `entity` in lib/db/codecs.ts), the resource it carries as
 * `data.object` (the API's own response schema, which the stream's records are parsed with),
 * whether `data` carries `previous`, when it is sent (`summary`, for the document) and the bus
 * rule that routes it (`rule`, one of lib/events/rules.ts's). The mapping, in
 * lib/events/mappings.ts, says when a change of the source kind is this event; a source kind
 * that emits nothing yet gets its mapping function there. `appointment.deleted` is such a row:
 * source APPOINTMENT, object Appointment (as it was before the delete), no previous, routed by
 * AppointmentEvents; its mapping is the REMOVE branch of the appointment mapping.
 */

const WebhookTest = z
  .object({
    webhook_id: OutId('webhook', 'The subscription tested.'),
    message: doc(z.string(), 'A fixed greeting.', 'A test event from medspa-api: your endpoint is reachable and can verify signatures.'),
  })
  .describe('The payload of a test delivery.');

interface EventRow {
  /** The stored kind whose changes emit it (a codec's `entity`); null: never from the stream. */
  source: string | null;
  /** The resource it carries as `data.object`, as GET shows it. */
  object: z.ZodObject;
  /** Whether `data` carries `previous`: the old values of the fields that changed. */
  previous: boolean;
  /** When it is sent, for the document. */
  summary: string;
  /** The bus rule that routes it (lib/events/rules.ts); null: never on the bus. */
  rule: string | null;
}

const APPOINTMENT = { source: 'APPOINTMENT', object: Appointment, rule: 'AppointmentEvents' } as const;
const CLIENT = { source: 'CLIENT', object: Client, rule: 'ClientEvents' } as const;

export const EVENT_CATALOG = {
  'appointment.created': { ...APPOINTMENT, previous: false, summary: 'An appointment was booked' },
  'appointment.updated': { ...APPOINTMENT, previous: true, summary: 'An appointment changed (time, resources, notes, price), not its status' },
  'appointment.status_changed': { ...APPOINTMENT, previous: true, summary: 'An appointment moved to another status (cancel and completion included)' },
  'appointment.cancelled': { ...APPOINTMENT, previous: true, summary: 'An appointment was cancelled (sent with appointment.status_changed)' },
  'appointment.completed': { ...APPOINTMENT, previous: true, summary: 'An appointment was completed (sent with appointment.status_changed)' },
  'appointment.deleted': {
    ...APPOINTMENT,
    previous: false,
    summary: 'An appointment was deleted (DELETE /v1/appointments/{id}): the object is the appointment as it was before the delete, with no previous',
  },
  'appointment.reminder': {
    ...APPOINTMENT,
    source: 'REMINDER',
    previous: false,
    summary: 'reminder_lead_minutes before an active appointment, or on demand (POST .../reminders)',
  },
  'client.created': { ...CLIENT, previous: false, summary: 'A client was created' },
  'client.updated': { ...CLIENT, previous: true, summary: 'A client changed (not its visit and spend statistics)' },
  'client.deleted': { ...CLIENT, previous: false, summary: 'A client was deleted: the object is the anonymised client, with no previous' },
  'payment.received': { source: 'PAYMENT', object: Payment, previous: false, rule: 'CommerceEvents', summary: 'A payment was recorded' },
  'consent.signed': { source: 'CONSENT', object: Consent, previous: false, rule: 'ClientEvents', summary: 'A consent form was recorded' },
  'product.low_stock': {
    source: 'LOW_STOCK_EVENT',
    object: Product,
    previous: true,
    rule: 'CommerceEvents',
    summary: 'A stock adjustment took a product to or below its threshold (once per crossing)',
  },
  'webhook.test': { source: null, object: WebhookTest, previous: false, rule: null, summary: 'POST /v1/webhooks/{id}/test: sent to that subscription only' },
} as const satisfies Record<string, EventRow>;

type Catalog = typeof EVENT_CATALOG;
export type EventType = keyof Catalog;
/** The event types the table stream emits (all but `webhook.test`, which only ever goes to the one subscription tested). */
export type StreamEventType = { [T in EventType]: Catalog[T]['source'] extends null ? never : T }[EventType];
/** The stored kinds that emit events. */
export type EventSource = NonNullable<Catalog[EventType]['source']>;
/** The bus rules events name. */
export type EventRuleName = NonNullable<Catalog[EventType]['rule']>;

const ALL_TYPES = Object.keys(EVENT_CATALOG) as EventType[];
export const EVENT_TYPES = ALL_TYPES.filter((type): type is StreamEventType => EVENT_CATALOG[type].source !== null);

/** When each event is sent, for the document. */
export const EVENT_SUMMARIES = Object.fromEntries(ALL_TYPES.map((type) => [type, EVENT_CATALOG[type].summary])) as Record<EventType, string>;

const EXAMPLE_EVENT_ID = 'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b';

const eventEnvelope = <T extends EventType>(type: T) => {
  const { object, previous } = EVENT_CATALOG[type] as EventRow & { object: Catalog[T]['object'] };
  const data = previous
    ? z.object({
        object,
        previous: object.partial().describe('The old values of the fields that changed (null for a field that had none).'),
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

/** The envelope of every event type, by type: what webhook subscribers receive. */
export const EVENT_ENVELOPES = Object.fromEntries(ALL_TYPES.map((type) => [type, eventEnvelope(type)])) as {
  [T in EventType]: ReturnType<typeof eventEnvelope<T>>;
};
