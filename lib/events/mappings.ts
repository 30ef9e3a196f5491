import { isDeepStrictEqual } from 'node:util';
import { issueManageToken, manageGenerationOf } from '../crypto/manage-token';
import type { Kind, StoredChange } from '../db/stream';
import { toLedgerEntry } from '../domain/plan-presenters';
import { presentClient, toProduct } from '../domain/presenters';
import { isRecall } from '../domain/recall';
import { presentEntry } from '../domain/waitlist';
import type { AppointmentRecord, ClientRecord } from '../domain/records';
import type { EventSource, StreamEventType } from '../domain/events';
import { objectSchemaOf } from '../schemas/events';

/**
 * The mappings of the event table (lib/domain/events.ts): for each source kind, when a change of
 * one of its records is which events. Pure: no I/O, no clock.
 */

/** An event before its envelope (lib/events/from-record.ts adds id, time and practice). */
export interface Draft {
  type: StreamEventType;
  /** Parsed with the row's object schema: what GET would show. */
  object: Record<string, unknown>;
  previous?: Record<string, unknown>;
  /** The change time: the record's own `updated_at` (or its kind's equivalent). */
  at: unknown;
  /** Set when the record names its event id (reminders: the id the API answered). */
  id?: string;
  /** More of `data` beside `object` (an online booking's `manage_token`). */
  extra?: Record<string, unknown>;
}

/**
 * The row's object: parsed with the API's own response schema, which drops storage-only fields
 * (deletion marks, search and stock bookkeeping). A mismatch is a malformed record, reported by
 * ids and paths only (never values).
 */
export function objectOf(type: StreamEventType, value: unknown, change: { eventId: string }): Record<string, unknown> {
  const parsed = objectSchemaOf(type).safeParse(value);
  if (parsed.success) return parsed.data;
  const paths = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
  throw new Error(`stream record ${change.eventId}: the ${type} object does not fit its public schema at ${paths}`);
}

/** Old values of the fields that changed (null when none did), ignoring `ignored`. */
function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  ignored: readonly string[],
): Record<string, unknown> | null {
  const previous: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignored.includes(name)) continue;
    if (!isDeepStrictEqual(before[name], after[name])) previous[name] = before[name] ?? null;
  }
  return Object.keys(previous).length > 0 ? previous : null;
}

/** Every write bumps these; they are not "what changed". */
const BOOKKEEPING = ['version', 'updated_at'] as const;

/**
 * An online booking's `appointment.created` carries its manage token (API reference, online
 * booking), so the practice's messaging tool can send the client the link. Any token sealed for
 * this appointment works, so the one exception to "pure" here is the seal's random bytes.
 */
const manageLinkOf = (appointment: {
  source: string;
  medspa_id: string;
  id: string;
  end_at: string;
  manage_generation?: number;
}) => (appointment.source === 'online' ? { extra: { manage_token: issueManageToken(appointment) } } : {});

/** A public reschedule moves the manage link on (lib/crypto/manage-token.ts): its `appointment.updated` carries the new one. */
const newManageLinkOf = (before: AppointmentRecord, after: AppointmentRecord) =>
  manageGenerationOf(after) !== manageGenerationOf(before) ? manageLinkOf(after) : {};

/** Items stored before fees have none. */
const feeCount = (appointment: AppointmentRecord) => appointment.fees?.length ?? 0;

/**
 * created on insert; a status move is `status_changed` (+ `completed` or `cancelled` when it
 * ends there), with `previous` holding the old status and whatever else moved with it (cancel
 * fields); any other change (reschedule, resources, notes, price) is ONE `updated` with the old
 * values of the changed fields. A hard delete (DELETE /v1/appointments/{id}) is `deleted`, with
 * the appointment as it was before it, at the stream record's time (a delete leaves no updated_at).
 */
function appointmentEvents(change: StoredChange<'APPOINTMENT'>): Draft[] {
  if (change.change === 'REMOVE')
    return change.before
      ? [{ type: 'appointment.deleted', object: objectOf('appointment.deleted', change.before, change), at: undefined }]
      : [];
  if (!change.after) return [];
  const after = objectOf('appointment.updated', change.after, change);
  if (change.change === 'INSERT' || !change.before)
    return [{ type: 'appointment.created', object: after, at: after.updated_at, ...manageLinkOf(change.after) }];
  const previous = changedFields(objectOf('appointment.updated', change.before, change), after, BOOKKEEPING);
  if (!previous) return [];
  const at = after.updated_at;
  if (change.before.status === change.after.status)
    return [
      { type: 'appointment.updated', object: after, previous, at, ...newManageLinkOf(change.before, change.after) },
    ];
  const drafts: Draft[] = [{ type: 'appointment.status_changed', object: after, previous, at }];
  if (change.after.status === 'completed') drafts.push({ type: 'appointment.completed', object: after, previous, at });
  if (change.after.status === 'cancelled') drafts.push({ type: 'appointment.cancelled', object: after, previous, at });
  // A fee is assessed only with the status move that causes it (lib/use-cases/appointment-status.ts).
  if (feeCount(change.after) > feeCount(change.before))
    drafts.push({ type: 'appointment.fee_assessed', object: after, at });
  return drafts;
}

/** Reminder records (on demand or scheduled): `appointment.reminder` under the id stored with them. */
function reminderEvents(change: StoredChange<'REMINDER'>): Draft[] {
  if (change.change !== 'INSERT' || !change.after) return [];
  const reminder = change.after;
  return [
    {
      type: 'appointment.reminder',
      id: reminder.event_id,
      object: objectOf('appointment.reminder', reminder.appointment, change),
      at: reminder.requested_at,
    },
  ];
}

/**
 * created on insert; `deleted` when the soft delete lands (the object is the anonymised client
 * and there is no `previous`: it would hand out the erased details); `updated` for any other
 * change of the client itself. Visit and spend statistics move without a version bump, inside
 * the transaction of a completion, no-show or payment, which have their own events: no
 * `client.updated` for those, nor for anything that happens to a deleted client. The object is
 * the client as GET shows it, its health score as of the change.
 */
function clientEvents(change: StoredChange<'CLIENT'>): Draft[] {
  const after = change.after;
  if (change.change === 'REMOVE' || !after || typeof after.updated_at !== 'string' || !after.updated_at) return [];
  const at = after.updated_at;
  const shown = (type: StreamEventType, client: ClientRecord) =>
    objectOf(type, presentClient(client, new Date(at)), change);
  if (change.change === 'INSERT' || !change.before)
    return after.deleted_at ? [] : [{ type: 'client.created', object: shown('client.created', after), at }];
  const before = change.before;
  if (before.deleted_at) return [];
  if (after.deleted_at) return [{ type: 'client.deleted', object: shown('client.deleted', after), at }];
  if (before.version === after.version) return [];
  const object = shown('client.updated', after);
  const previous = changedFields(shown('client.updated', before), object, [...BOOKKEEPING, 'health_score']);
  return previous ? [{ type: 'client.updated', object, previous, at }] : [];
}

/** An event for each new record of the kind, at its `at` field. */
const onInsert =
  <K extends Kind>(type: StreamEventType, at: (record: NonNullable<StoredChange<K>['after']>) => unknown) =>
  (change: StoredChange<K>): Draft[] =>
    change.change === 'INSERT' && change.after
      ? [{ type, object: objectOf(type, change.after, change), at: at(change.after!) }]
      : [];

/** One crossing record per crossing: the product as of the crossing (stored with it), which was not low before. */
function lowStockEvents(change: StoredChange<'LOW_STOCK_EVENT'>): Draft[] {
  if (change.change !== 'INSERT' || !change.after) return [];
  const crossing = change.after;
  if (!crossing.product || typeof crossing.product !== 'object')
    throw new Error(`stream record ${change.eventId}: low-stock crossing without its product`);
  return [
    {
      type: 'product.low_stock',
      object: objectOf('product.low_stock', toProduct(crossing.product), change),
      previous: { low_stock: false },
      at: crossing.occurred_at,
    },
  ];
}

/** A status move is its event; a new current term is `renewed` (section 12). */
const PLAN_STATUS_EVENTS: Record<string, StreamEventType> = {
  paused: 'client_plan.paused',
  active: 'client_plan.resumed',
  cancelled: 'client_plan.cancelled',
  expired: 'client_plan.expired',
};

function clientPlanEvents(change: StoredChange<'CLIENT_PLAN'>): Draft[] {
  if (change.change === 'REMOVE' || !change.after) return [];
  const at = change.after.updated_at;
  if (change.change === 'INSERT' || !change.before)
    return [{ type: 'client_plan.sold', object: objectOf('client_plan.sold', change.after, change), at }];
  const before = change.before;
  const after = change.after;
  const type =
    before.status !== after.status
      ? PLAN_STATUS_EVENTS[after.status]
      : before.current_term?.starts_on !== after.current_term?.starts_on
        ? 'client_plan.renewed'
        : undefined;
  if (!type) return [];
  const object = objectOf(type, after, change);
  const previous = changedFields(objectOf(type, before, change), object, BOOKKEEPING) ?? {};
  return [{ type, object, previous, at }];
}

/** A unit used is `entitlement.used`, with the ledger entry (reserves, releases and adjustments send nothing). */
const ledgerEvents = (change: StoredChange<'PLAN_LEDGER'>): Draft[] =>
  change.change === 'INSERT' && change.after?.kind === 'use'
    ? [
        {
          type: 'entitlement.used',
          object: objectOf('entitlement.used', toLedgerEntry(change.after), change),
          at: change.after.created_at,
        },
      ]
    : [];

/** A lot's recall, once: its change from active to recalled (a recall that lost the race wrote nothing). */
const lotEvents = (change: StoredChange<'LOT'>): Draft[] =>
  change.change === 'MODIFY' && isRecall(change.before, change.after)
    ? [
        {
          type: 'lot.recalled',
          object: objectOf('lot.recalled', change.after, change),
          at: change.after.recalled_at,
        },
      ]
    : [];

/** A recall notice is written once per exposed client (lib/db/lot-recall.ts): its insert is the client's event. */
const recallNoticeEvents = (change: StoredChange<'LOT_RECALL_NOTICE'>): Draft[] =>
  change.change === 'INSERT' && change.after
    ? [
        {
          type: 'client.lot_exposure',
          object: objectOf('client.lot_exposure', change.after, change),
          at: change.after.recalled_at,
        },
      ]
    : [];

/** A new signed revision: revision 1 is the signing, every later one an amendment (each revision item is written once). */
function treatmentRevisionEvents(change: StoredChange<'TREATMENT_REVISION'>): Draft[] {
  if (change.change !== 'INSERT' || !change.after) return [];
  const { medspa_id: _medspaId, ...record } = change.after;
  const type = record.revision === 1 ? 'treatment_record.signed' : 'treatment_record.amended';
  return [{ type, object: objectOf(type, record, change), at: record.signed_at }];
}

/** An offer item, written once with its offer: the entry as offered, with the client's contact details. */
function waitlistOfferEvents(change: StoredChange<'WAITLIST_OFFER'>): Draft[] {
  if (change.change !== 'INSERT' || !change.after) return [];
  const { entry, client, created_at: at } = change.after;
  const object = { ...presentEntry(entry, new Date(at)), client };
  return [{ type: 'waitlist.offer_created', object: objectOf('waitlist.offer_created', object, change), at }];
}

/** Each source kind of the table and its mapping; a source the table names without a mapping here does not compile. */
export const MAPPINGS: { [K in EventSource]: (change: StoredChange<K>) => Draft[] } = {
  APPOINTMENT: appointmentEvents,
  REMINDER: reminderEvents,
  CLIENT: clientEvents,
  PAYMENT: onInsert<'PAYMENT'>('payment.received', (payment) => payment.created_at),
  CONSENT: onInsert<'CONSENT'>('consent.signed', (consent) => consent.created_at),
  LOW_STOCK_EVENT: lowStockEvents,
  CLIENT_PLAN: clientPlanEvents,
  PLAN_LEDGER: ledgerEvents,
  LOT: lotEvents,
  LOT_RECALL_NOTICE: recallNoticeEvents,
  TREATMENT_REVISION: treatmentRevisionEvents,
  // Each recorded change is written once (lib/db/contact-consents.ts): its insert is the event.
  CONTACT_CONSENT: onInsert<'CONTACT_CONSENT'>('client.contact_consent_changed', (change) => change.recorded_at),
  WAITLIST_OFFER: waitlistOfferEvents,
};

/** The kinds the event pipeline decodes: the table's sources. */
export const EVENT_SOURCES = Object.keys(MAPPINGS) as EventSource[];
