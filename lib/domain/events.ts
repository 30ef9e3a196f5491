/**
 * THE event table (API reference, webhooks and events): one row per event type. Everything else
 * derives from it: the type list (EVENT_TYPES, the webhook subscription enum), the envelope
 * schemas and the OpenAPI document's `webhooks` section (lib/schemas/events.ts), the bus rules
 * (lib/events/rules.ts) and which stream records the event pipeline decodes (lib/events/mappings.ts).
 * Plain data, no zod: every function that checks a subscription's event names loads it.
 *
 * Adding an event type takes one row here and one mapping. The row names the stored kind whose
 * changes emit it (`source`, a codec's `entity` in lib/db/codecs.ts), the resource it carries as
 * `data.object` (`object`: its response schema in lib/schemas/events.ts EVENT_OBJECTS, which the
 * stream's records are parsed with), whether `data` carries `previous`, when it is sent
 * (`summary`, for the document) and the bus rule that routes it (`rule`, one of
 * lib/events/rules.ts's). The mapping, in lib/events/mappings.ts, says which change of the source
 * kind is this event. `appointment.deleted` is such a row: source APPOINTMENT, object the
 * appointment as it was before the delete, no previous, routed by AppointmentEvents; its mapping
 * is the REMOVE branch of the appointment mapping. A new resource as object also takes its entry
 * in EVENT_OBJECTS, a new rule its description in lib/events/rules.ts, a new source kind its
 * record type (lib/domain/records) and codec; `npm run generate` then refreshes the typed
 * client's lists of event types.
 */

interface EventRow {
  /** The stored kind whose changes emit it (a codec's `entity`); null: never from the stream. */
  source: string | null;
  /** The resource it carries as `data.object`, as GET shows it (a key of lib/schemas/events.ts EVENT_OBJECTS). */
  object: string;
  /** Whether `data` carries `previous`: the old values of the fields that changed. */
  previous: boolean;
  /** When it is sent, for the document. */
  summary: string;
  /** The bus rule that routes it (lib/events/rules.ts); null: never on the bus. */
  rule: string | null;
}

export const EVENT_CATALOG = {
  'appointment.created': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: false,
    rule: 'AppointmentEvents',
    summary: 'An appointment was booked',
  },
  'appointment.updated': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: true,
    rule: 'AppointmentEvents',
    summary: 'An appointment changed (time, resources, notes, price), not its status',
  },
  'appointment.status_changed': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: true,
    rule: 'AppointmentEvents',
    summary: 'An appointment moved to another status (cancel and completion included)',
  },
  'appointment.cancelled': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: true,
    rule: 'AppointmentEvents',
    summary: 'An appointment was cancelled (sent with appointment.status_changed)',
  },
  'appointment.completed': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: true,
    rule: 'AppointmentEvents',
    summary: 'An appointment was completed (sent with appointment.status_changed)',
  },
  'appointment.fee_assessed': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: false,
    rule: 'AppointmentEvents',
    summary:
      "A late cancel or a no-show assessed a fee under the appointment's cancellation policy (sent with the status change): the object is the appointment, its new fee last in `fees`",
  },
  'appointment.deleted': {
    source: 'APPOINTMENT',
    object: 'appointment',
    previous: false,
    rule: 'AppointmentEvents',
    summary:
      'An appointment was deleted (DELETE /v1/appointments/{id}): the object is the appointment as it was before the delete, with no previous',
  },
  'appointment.reminder': {
    source: 'REMINDER',
    object: 'appointment',
    previous: false,
    rule: 'AppointmentEvents',
    summary: 'reminder_lead_minutes before an active appointment, or on demand (POST .../reminders)',
  },
  'client.created': {
    source: 'CLIENT',
    object: 'client',
    previous: false,
    rule: 'ClientEvents',
    summary: 'A client was created',
  },
  'client.updated': {
    source: 'CLIENT',
    object: 'client',
    previous: true,
    rule: 'ClientEvents',
    summary: 'A client changed (not its visit and spend statistics)',
  },
  'client.deleted': {
    source: 'CLIENT',
    object: 'client',
    previous: false,
    rule: 'ClientEvents',
    summary: 'A client was deleted: the object is the anonymised client, with no previous',
  },
  'payment.received': {
    source: 'PAYMENT',
    object: 'payment',
    previous: false,
    rule: 'CommerceEvents',
    summary: 'A payment was recorded',
  },
  'consent.signed': {
    source: 'CONSENT',
    object: 'consent',
    previous: false,
    rule: 'ClientEvents',
    summary: 'A consent form was recorded',
  },
  'product.low_stock': {
    source: 'LOW_STOCK_EVENT',
    object: 'product',
    previous: true,
    rule: 'CommerceEvents',
    summary: 'A stock adjustment took a product to or below its threshold (once per crossing)',
  },
  'client_plan.sold': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: false,
    rule: 'CommerceEvents',
    summary: 'A plan was sold to a client (its units granted; its balances are on GET /v1/client-plans/{id})',
  },
  'client_plan.paused': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: true,
    rule: 'CommerceEvents',
    summary: "A client's plan was paused",
  },
  'client_plan.resumed': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: true,
    rule: 'CommerceEvents',
    summary: "A client's paused plan was resumed",
  },
  'client_plan.cancelled': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: true,
    rule: 'CommerceEvents',
    summary: "A client's plan was cancelled",
  },
  'client_plan.expired': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: true,
    rule: 'CommerceEvents',
    summary: "A client's plan expired",
  },
  'client_plan.renewed': {
    source: 'CLIENT_PLAN',
    object: 'client_plan',
    previous: true,
    rule: 'CommerceEvents',
    summary: "A membership's next term began (previous holds the term before)",
  },
  'entitlement.used': {
    source: 'PLAN_LEDGER',
    object: 'plan_ledger_entry',
    previous: false,
    rule: 'CommerceEvents',
    summary:
      "A plan's unit was used (a completion, a no-show or a late cancel of a plan-booked appointment): the object is the ledger entry",
  },
  'lot.recalled': {
    source: 'LOT',
    object: 'lot',
    previous: false,
    rule: 'CommerceEvents',
    summary:
      'A lot was recalled (POST /v1/lots/{id}/recall), once: the object is the lot as recalled; each exposed client follows as client.lot_exposure',
  },
  'client.lot_exposure': {
    source: 'LOT_RECALL_NOTICE',
    object: 'client_lot_exposure',
    previous: false,
    rule: 'ClientEvents',
    summary:
      'A recalled lot reached this client: once per exposed client, with every treatment of theirs that took from the lot (a messaging tool can reach each the same day)',
  },
  'client.contact_consent_changed': {
    source: 'CONTACT_CONSENT',
    object: 'client_contact_consent',
    previous: false,
    rule: 'ClientEvents',
    summary:
      "A client's contact consent for a channel and purpose was recorded (PUT .../contact-consents/{channel}/{purpose}, or a grant on a public booking): the object is the change with the client id and its `sequence` in the client's history",
  },
  'treatment_record.signed': {
    source: 'TREATMENT_REVISION',
    object: 'treatment_record',
    previous: false,
    rule: 'AppointmentEvents',
    summary: 'A treatment record was signed (revision 1): the object is the record as signed',
  },
  'treatment_record.amended': {
    source: 'TREATMENT_REVISION',
    object: 'treatment_record',
    previous: false,
    rule: 'AppointmentEvents',
    summary:
      'A signed treatment record was amended: the object is the new revision (its `revision`, `signed_by` and `amendment_reason`); earlier ones are on GET .../treatment-record/versions',
  },
  'waitlist.offer_created': {
    source: 'WAITLIST_OFFER',
    object: 'waitlist_offer',
    previous: false,
    rule: 'AppointmentEvents',
    summary:
      "Freed time was offered to a waitlist entry (held for it for the practice's `waitlist_offer_minutes`): the entry with its offer and the client's contact details",
  },
  'webhook.test': {
    source: null,
    object: 'webhook_test',
    previous: false,
    rule: null,
    summary: 'POST /v1/webhooks/{id}/test: sent to that subscription only',
  },
} as const satisfies Record<string, EventRow>;

type Catalog = typeof EVENT_CATALOG;
export type EventType = keyof Catalog;
/** The event types the table stream emits (all but `webhook.test`, which only ever goes to the one subscription tested). */
export type StreamEventType = { [T in EventType]: Catalog[T]['source'] extends null ? never : T }[EventType];
/** The stored kinds that emit events. */
export type EventSource = NonNullable<Catalog[EventType]['source']>;
/** The resources events carry. */
export type EventObject = Catalog[EventType]['object'];
/** The bus rules events name. */
export type EventRuleName = NonNullable<Catalog[EventType]['rule']>;

// Annotated pure (and the table has no spreads) so a bundle that never reads the lists drops them and the table.
/** Every event type, in table order. */
export const ALL_EVENT_TYPES = /* @__PURE__ */ Object.keys(EVENT_CATALOG) as EventType[];
/** The event types of the API reference's webhooks and events section that subscriptions name. */
export const EVENT_TYPES = /* @__PURE__ */ ALL_EVENT_TYPES.filter(
  (type): type is StreamEventType => EVENT_CATALOG[type].source !== null,
);

/** What a subscriber receives (API reference, webhooks and events): the body of every delivery. */
export interface ContractEvent {
  /** Deterministic from its source (a replayed stream record yields the same id): `evt_...`. */
  id: string;
  type: EventType;
  /** ISO 8601 UTC. */
  created_at: string;
  medspa_id: string;
  data: { object: Record<string, unknown>; previous?: Record<string, unknown> };
}

/** EventBridge carries an event as `source` + `detail-type` + `detail`; the local bus uses the same shape. */
export const EVENT_SOURCE = 'medspa-api';
