import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { appointmentKey, consentKey, entityKey, lowStockEventKey, reminderKey, type Key } from '../db/keys';
import type { StoredProduct } from '../db/products';
import { isActive } from '../domain/status';
import { Appointment } from '../schemas/appointments';
import { Consent } from '../schemas/clients';
import { Payment } from '../schemas/payments';
import { Product } from '../schemas/products';
import { Client, type ClientRecord } from '../schemas/resources';
import { presentClient } from '../use-cases/clients';
import { toProduct } from '../use-cases/products';
import { eventIdFrom } from './ids';
import { decodeRecord, type Item, type ItemChange, type StreamRecord } from './stream-record';
import type { ContractEvent, EventType } from './types';

/**
 * The table stream is the outbox: each committed change of an item that integrators care about
 * becomes contract events (API reference, webhooks and events), and every other item (time claims, search terms, audit
 * entries, SKU claims, ledger entries, treatment records, reminder bookkeeping, idempotency and
 * rate-limit records...) becomes nothing.
 *
 * An item is recognised by its `entity` attribute AND by its key being the one the key builders
 * make from the item's own ids, so nothing else can pass for a resource. `data.object` is parsed
 * with the API's own response schema, which drops storage attributes (pk, sk, gsi*, entity,
 * deleted_at, search and stock bookkeeping): an event shows what GET would.
 *
 * Pure: no I/O, no clock. Ids are derived from the stream record's eventID and the event type,
 * so a replayed record yields the same events with the same ids.
 */

export interface EventContext {
  /** When the record carries no change time at all (never for items this API writes). */
  now: Date;
}

interface Draft {
  type: EventType;
  object: Record<string, unknown>;
  previous?: Record<string, unknown>;
  /** The change time: the item's own `updated_at` (or its kind's equivalent). */
  at: unknown;
  /** Set when the item names its event id (reminders: the id the API answered). */
  id?: string;
}

interface Kind {
  /** The key an item of this kind has, rebuilt from its attributes (null when they are missing). */
  keyOf(item: Item): Key | null;
  events(change: ItemChange): Draft[];
}

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** Parses with the public schema; a mismatch is a malformed item, reported by ids and paths only. */
function publicShape<T>(schema: z.ZodType<T>, value: unknown, what: string, change: ItemChange): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const paths = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
  throw new Error(`stream record ${change.eventId}: the ${what} does not fit its public schema at ${paths}`);
}

/** Old values of the fields that changed (null when none did), ignoring `ignored`. */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, ignored: readonly string[]): Record<string, unknown> | null {
  const previous: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignored.includes(name)) continue;
    if (!isDeepStrictEqual(before[name], after[name])) previous[name] = before[name] ?? null;
  }
  return Object.keys(previous).length > 0 ? previous : null;
}

/** Every write bumps these; they are not "what changed". */
const BOOKKEEPING = ['version', 'updated_at'] as const;

// ---- Appointments ------------------------------------------------------------------------

const publicAppointment = (item: Item, change: ItemChange) => publicShape(Appointment, item, 'appointment', change);

/**
 * created on insert; a status move is `status_changed` (+ `completed` or `cancelled` when it
 * ends there), with `previous` holding the old status and whatever else moved with it (cancel
 * fields); any other change (reschedule, resources, notes, price) is ONE `updated` with the old
 * values of the changed fields. A hard delete (DELETE /v1/appointments/{id}) is `deleted`, with
 * the appointment as it was before it, at the stream record's time (a delete leaves no updated_at).
 */
function appointmentEvents(change: ItemChange): Draft[] {
  if (change.kind === 'REMOVE') return change.oldItem ? [{ type: 'appointment.deleted', object: publicAppointment(change.oldItem, change), at: undefined }] : [];
  if (!change.newItem) return [];
  const after = publicAppointment(change.newItem, change);
  if (change.kind === 'INSERT' || !change.oldItem) return [{ type: 'appointment.created', object: after, at: after.updated_at }];
  const before = publicAppointment(change.oldItem, change);
  const previous = changedFields(before, after, BOOKKEEPING);
  if (!previous) return [];
  if (before.status === after.status) return [{ type: 'appointment.updated', object: after, previous, at: after.updated_at }];
  const drafts: Draft[] = [{ type: 'appointment.status_changed', object: after, previous, at: after.updated_at }];
  if (after.status === 'completed') drafts.push({ type: 'appointment.completed', object: after, previous, at: after.updated_at });
  if (after.status === 'cancelled') drafts.push({ type: 'appointment.cancelled', object: after, previous, at: after.updated_at });
  return drafts;
}

/** Reminder items (on demand or scheduled): `appointment.reminder` under the id stored with them. */
function reminderEvents(change: ItemChange): Draft[] {
  if (change.kind !== 'INSERT' || !change.newItem) return [];
  const item = change.newItem;
  if (!text(item.event_id)) throw new Error(`stream record ${change.eventId}: reminder item without event_id`);
  return [{ type: 'appointment.reminder', id: item.event_id, object: publicAppointment(item.appointment as Item, change), at: item.requested_at }];
}

// ---- Clients -----------------------------------------------------------------------------

/** The client as GET shows it, its health score as of the change. */
const publicClient = (item: Item, at: string, change: ItemChange) =>
  publicShape(Client, presentClient(item as unknown as ClientRecord, new Date(at)), 'client', change);

/**
 * created on insert; `deleted` when the soft delete lands (the object is the anonymised client
 * and there is no `previous`: it would hand out the erased details); `updated` for any other
 * change of the client itself. Visit and spend statistics move without a version bump, inside
 * the transaction of a completion, no-show or payment, which have their own events: no
 * `client.updated` for those, nor for anything that happens to a deleted client.
 */
function clientEvents(change: ItemChange): Draft[] {
  const after = change.newItem;
  if (change.kind === 'REMOVE' || !after || !text(after.updated_at)) return [];
  const at = after.updated_at;
  if (change.kind === 'INSERT' || !change.oldItem) return after.deleted_at ? [] : [{ type: 'client.created', object: publicClient(after, at, change), at }];
  const before = change.oldItem;
  if (before.deleted_at) return [];
  if (after.deleted_at) return [{ type: 'client.deleted', object: publicClient(after, at, change), at }];
  if (before.version === after.version) return [];
  const object = publicClient(after, at, change);
  const previous = changedFields(publicClient(before, at, change), object, [...BOOKKEEPING, 'health_score']);
  return previous ? [{ type: 'client.updated', object, previous, at }] : [];
}

// ---- Payments, consents, low stock ---------------------------------------------------------

const insertOnly = (type: EventType, schema: z.ZodType<Record<string, unknown>>, what: string, atField: string) => (change: ItemChange): Draft[] => {
  if (change.kind !== 'INSERT' || !change.newItem) return [];
  return [{ type, object: publicShape(schema, change.newItem, what, change), at: change.newItem[atField] }];
};

/** One crossing item per crossing: the product as of the crossing (stored with it), which was not low before. */
function lowStockEvents(change: ItemChange): Draft[] {
  if (change.kind !== 'INSERT' || !change.newItem) return [];
  const snapshot = change.newItem.product as StoredProduct | undefined;
  if (!snapshot || typeof snapshot !== 'object') throw new Error(`stream record ${change.eventId}: low-stock crossing without its product`);
  const object = publicShape(Product, toProduct(snapshot), 'product', change);
  return [{ type: 'product.low_stock', object, previous: { low_stock: false }, at: change.newItem.occurred_at }];
}

// ---- Recognition ---------------------------------------------------------------------------

const KINDS: Record<string, Kind> = {
  APPOINTMENT: {
    keyOf: (item) => (text(item.medspa_id) && text(item.id) ? appointmentKey(item.medspa_id, item.id) : null),
    events: appointmentEvents,
  },
  REMINDER: {
    keyOf: (item) =>
      text(item.medspa_id) && text(item.appointment_id) && text(item.requested_at) && text(item.event_id)
        ? reminderKey(item.medspa_id, item.appointment_id, item.requested_at, item.event_id)
        : null,
    events: reminderEvents,
  },
  CLIENT: {
    keyOf: (item) => (text(item.medspa_id) && text(item.id) ? entityKey(item.medspa_id, 'CLIENT', item.id) : null),
    events: clientEvents,
  },
  PAYMENT: {
    keyOf: (item) => (text(item.medspa_id) && text(item.id) ? entityKey(item.medspa_id, 'PAYMENT', item.id) : null),
    events: insertOnly('payment.received', Payment, 'payment', 'created_at'),
  },
  CONSENT: {
    keyOf: (item) =>
      text(item.medspa_id) && text(item.client_id) && text(item.signed_at) && text(item.id) ? consentKey(item.medspa_id, item.client_id, item.signed_at, item.id) : null,
    events: insertOnly('consent.signed', Consent, 'consent', 'created_at'),
  },
  LOW_STOCK_EVENT: {
    keyOf: (item) =>
      text(item.medspa_id) && text(item.occurred_at) && text(item.product_id) && text(item.adjustment_id)
        ? lowStockEventKey(item.medspa_id, item.occurred_at, item.product_id, item.adjustment_id)
        : null,
    events: lowStockEvents,
  },
};

/** The kind of the changed item and the item naming it, or null for items that emit nothing. */
function recognise(change: ItemChange): { kind: Kind; item: Item } | null {
  const item = change.newItem ?? change.oldItem;
  if (!item || typeof item.entity !== 'string' || !Object.hasOwn(KINDS, item.entity)) return null;
  const kind = KINDS[item.entity];
  const key = kind.keyOf(item);
  if (!key || change.keys.pk !== key.pk || change.keys.sk !== key.sk) return null;
  return { kind, item };
}

const isoOrNull = (value: unknown): string | null => {
  if (!text(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

/** A stream record's contract events, in the order they happened (zero, one, or two for a completion or cancel). */
export function eventsFromRecord(record: StreamRecord, context: EventContext): ContractEvent[] {
  const change = decodeRecord(record);
  if (!change) return [];
  const recognised = recognise(change);
  if (!recognised) return [];
  const medspaId = recognised.item.medspa_id as string;
  return recognised.kind.events(change).map((draft) => ({
    id: draft.id ?? eventIdFrom(change.eventId, draft.type),
    type: draft.type,
    created_at: isoOrNull(draft.at) ?? change.approximateAt ?? context.now.toISOString(),
    medspa_id: medspaId,
    data: draft.previous ? { object: draft.object, previous: draft.previous } : { object: draft.object },
  }));
}

/** An appointment time a reminder must be armed for (API reference, webhooks and events). */
export interface ReminderArming {
  medspaId: string;
  appointmentId: string;
  scheduledAt: string;
  endAt: string;
}

/**
 * The appointment time to arm a reminder for: a new active appointment, or an active one whose
 * `scheduled_at` moved (a reschedule re-arms; the old time's reminder is never sent because the
 * sweeper checks the time again). Null for every other record.
 */
export function reminderToArm(record: StreamRecord): ReminderArming | null {
  const change = decodeRecord(record);
  if (!change || change.kind === 'REMOVE' || !change.newItem) return null;
  const recognised = recognise(change);
  if (!recognised || recognised.kind !== KINDS.APPOINTMENT) return null;
  const after = publicAppointment(change.newItem, change);
  if (!isActive(after.status)) return null;
  if (change.kind === 'MODIFY' && change.oldItem && change.oldItem.scheduled_at === after.scheduled_at) return null;
  return { medspaId: after.medspa_id, appointmentId: after.id, scheduledAt: after.scheduled_at, endAt: after.end_at };
}
