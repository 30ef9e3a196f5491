import * as z from './zod';
import { ALL_EVENT_TYPES, EVENT_CATALOG, type EventObject, type EventType } from '../domain/events';
import { Appointment } from './appointments';
import { Consent } from './clients';
import { ContactConsentEvent } from './contact-consents';
import { doc, Instant, OutId, schema } from './common';
import { Payment } from './payments';
import { ClientPlanEvent, LedgerEntry } from './plans';
import { ClientLotExposure, Lot, Product } from './products';
import { Client } from './resources';
import { TreatmentRecord } from './treatment-records';
import { WaitlistOfferEvent } from './waitlist';

/**
 * What webhook subscribers receive (API reference, webhooks and events): the envelope of each
 * row of the event table (lib/domain/events.ts), its `data.object` the API's own response schema
 * of the resource, the one the stream's records are parsed with (lib/events/mappings.ts). The
 * OpenAPI document's `webhooks` section is built from these.
 */

const WebhookTest = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      webhook_id: OutId('webhook', 'The subscription tested.'),
      message: doc(
        z.string(),
        'A fixed greeting.',
        'A test event from medspa-api: your endpoint is reachable and can verify signatures.',
      ),
    }),
    'The payload of a test delivery.',
  ),
);

type Catalog = typeof EVENT_CATALOG;

/** The response schema of each resource an event carries (a row naming another does not compile). */
export const EVENT_OBJECTS = {
  appointment: Appointment,
  client: Client,
  payment: Payment,
  consent: Consent,
  product: Product,
  client_plan: ClientPlanEvent,
  plan_ledger_entry: LedgerEntry,
  treatment_record: TreatmentRecord,
  webhook_test: WebhookTest,
  lot: Lot,
  client_lot_exposure: ClientLotExposure,
  client_contact_consent: ContactConsentEvent,
  waitlist_offer: WaitlistOfferEvent,
} as const satisfies Record<EventObject, z.ZodMiniObject>;

/** The object schema of an event type. */
export const objectSchemaOf = <T extends EventType>(type: T) =>
  EVENT_OBJECTS[EVENT_CATALOG[type].object] as (typeof EVENT_OBJECTS)[Catalog[T]['object']];

/** When each event is sent, for the document. */
export const EVENT_SUMMARIES = /* @__PURE__ */ schema(
  () =>
    Object.fromEntries(ALL_EVENT_TYPES.map((type) => [type, EVENT_CATALOG[type].summary])) as Record<EventType, string>,
);

const EXAMPLE_EVENT_ID = 'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b';

/** What some events' `data` carries beside `object`. */
const DATA_EXTRAS: Partial<Record<EventType, z.core.$ZodShape>> = /* @__PURE__ */ schema(() => ({
  'appointment.created': {
    manage_token: doc(
      z.optional(z.string()),
      'Online bookings only (`source: online`): the manage token, for a link the client can use to see, cancel or reschedule it (`X-Booking-Token`); valid until the appointment ends.',
      'mt_example',
    ),
  },
  'appointment.updated': {
    manage_token: doc(
      z.optional(z.string()),
      'A reschedule by the client (its manage link) only: the new manage token; the one handed out before stops working. Valid until the appointment ends.',
      'mt_example',
    ),
  },
}));

const eventEnvelope = <T extends EventType>(type: T) => {
  const object = objectSchemaOf(type);
  const data = EVENT_CATALOG[type].previous
    ? z.object({
        object,
        previous: doc(z.partial(object), 'The old values of the fields that changed (null for a field that had none).'),
        ...DATA_EXTRAS[type],
      })
    : z.object({ object, ...DATA_EXTRAS[type] });
  return doc(
    z.object({
      id: doc(
        z.string().check(z.regex(/^evt_/)),
        'The event id, also the `webhook-id` header: the same on every delivery attempt, so dedupe on it.',
        EXAMPLE_EVENT_ID,
      ),
      type: doc(z.literal(type), 'The event type.', type),
      created_at: Instant('When it happened (UTC).'),
      medspa_id: OutId('practice', 'The practice it happened in.'),
      data: doc(
        data,
        '`object`: the resource as GET shows it (after the change); `previous`, for changes: the old values of the fields that changed.',
      ),
    }),
    `${EVENT_SUMMARIES[type]}.`,
  );
};

/** The envelope of every event type, by type: what webhook subscribers receive. */
export const EVENT_ENVELOPES = /* @__PURE__ */ schema(
  () =>
    Object.fromEntries(ALL_EVENT_TYPES.map((type) => [type, eventEnvelope(type)])) as {
      [T in EventType]: ReturnType<typeof eventEnvelope<T>>;
    },
);
