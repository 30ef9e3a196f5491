import type { ContractEvent } from '../domain/events';
import { onlineBookingOf, type OnlineBookingSettings } from '../domain/online-booking';
import type * as R from '../domain/records';
import { fromItem } from './item';
import {
  appointmentKey,
  appointmentTimeIndexKeys,
  auditKey,
  claimKey,
  clientAppointmentsIndexKeys,
  clientPaymentsIndexKeys,
  clientSearchKey,
  onlineEmailKey,
  onlineLedgerKey,
  consentKey,
  credentialLookupIndexKey,
  entityKey,
  lowStockEventKey,
  lowStockIndexKeys,
  paymentTimeIndexKeys,
  practiceKey,
  productSkuKey,
  reminderDueKey,
  reminderKey,
  reminderSentKey,
  reminderSweepCheckpointKey,
  reportClientVisitsKey,
  reportDayKey,
  reportGenerationKey,
  reportLedgerKey,
  reportStreamMarkerKey,
  retailSalesIndexKeys,
  stockLedgerKey,
  treatmentRecordKey,
  webhookDeliveryKey,
  webhookDeliveryLookupIndexKeys,
  type ClaimedResource,
  type EntityType,
  type Key,
} from './keys';

/**
 * THE catalog of stored kinds: one codec per kind, how its record (lib/domain/records) becomes a
 * table item and back. `toItem` adds the keys, index keys and `entity` tag; `fromItem` drops them
 * (and any storage attribute); `keyOf` rebuilds an item's key from its own fields, so a stream
 * consumer (lib/db/stream.ts, which knows every codec exported here by its tag) takes an item
 * for what its tag says only when its key agrees. Every repository writes through its kind's
 * codec. A new stored kind is one record type (lib/domain/records) and one codec here. The
 * idempotency and rate-limit records (lib/db/idempotency.ts, lib/db/rate-limits.ts) are request
 * bookkeeping without one: their keys name the credential, which their items do not hold.
 */
export interface Codec<T, E extends string = string> {
  entity: E;
  keyOf(item: Record<string, unknown>): Key | null;
  toItem(record: T): Record<string, unknown>;
  fromItem(item: Record<string, unknown> | undefined): T | null;
}

interface Shape<T> {
  /** The fields the key is built from: an item missing one is no item of this kind. */
  keyFields: readonly (keyof T & string)[];
  /** Its key, plus the index keys it is on. */
  keys(record: T): Key & object;
  /** The stored attributes, when they differ from the record's fields. */
  encode?(record: T): Record<string, unknown>;
  decode?(attributes: Record<string, unknown>): T;
}

const isText = (value: unknown) => typeof value === 'string' && value.length > 0;

/** Annotated pure so a bundle keeps only the codecs it uses (esbuild drops the others). */
/* @__NO_SIDE_EFFECTS__ */ function codec<T, E extends string>(entity: E, shape: Shape<T>): Codec<T, E> {
  return {
    entity,
    keyOf: (item) => {
      if (!shape.keyFields.every((field) => isText(item[field]))) return null;
      const { pk, sk } = shape.keys(item as T);
      return { pk, sk };
    },
    toItem: (record) => ({ ...shape.keys(record), entity, ...(shape.encode ? shape.encode(record) : record) }),
    fromItem: (item) => {
      const attributes = fromItem<Record<string, unknown>>(item);
      if (!attributes) return null;
      return shape.decode ? shape.decode(attributes) : (attributes as T);
    },
  };
}

/** A record of a practice's `{TYPE}` collection, keyed by its id. */
/* @__NO_SIDE_EFFECTS__ */ function collectionCodec<T extends { medspa_id: string; id: string }, E extends EntityType>(type: E, indexKeys: (record: T) => object = () => ({})) {
  return codec<T, E>(type, { keyFields: ['medspa_id', 'id'], keys: (r) => ({ ...entityKey(r.medspa_id, type, r.id), ...indexKeys(r) }) });
}

// ---- Practice, setup resources, clients ------------------------------------------------------

/** Practices stored before online booking and CORS existed read with those settings' defaults. */
export const practiceCodec = codec<R.PracticeRecord, 'PRACTICE'>('PRACTICE', {
  keyFields: ['id'],
  keys: (p) => practiceKey(p.id),
  decode: (stored) => ({
    ...(stored as unknown as R.PracticeRecord),
    online_booking: onlineBookingOf(stored.online_booking as Partial<OnlineBookingSettings> | undefined),
    allowed_origins: (stored.allowed_origins as string[] | undefined) ?? [],
  }),
});
export const providerCodec = collectionCodec<R.ProviderRecord, 'PROVIDER'>('PROVIDER');
export const roomCodec = collectionCodec<R.FacilityRecord, 'ROOM'>('ROOM');
export const equipmentCodec = collectionCodec<R.FacilityRecord, 'EQUIPMENT'>('EQUIPMENT');
export const serviceCodec = collectionCodec<R.ServiceRecord, 'SERVICE'>('SERVICE');
export const clientCodec = collectionCodec<R.ClientRecord, 'CLIENT'>('CLIENT');
export const clientSearchCodec = codec<R.ClientSearchRecord, 'CLIENT_SEARCH'>('CLIENT_SEARCH', {
  keyFields: ['medspa_id', 'term', 'client_id'],
  keys: (e) => clientSearchKey(e.medspa_id, e.term, e.client_id),
});
export const consentCodec = codec<R.ConsentRecord, 'CONSENT'>('CONSENT', {
  keyFields: ['medspa_id', 'client_id', 'signed_at', 'id'],
  keys: (c) => consentKey(c.medspa_id, c.client_id, c.signed_at, c.id),
});
export const credentialCodec = collectionCodec<R.CredentialRecord, 'CRED'>('CRED', (c) => credentialLookupIndexKey(c.client_id));
export const publishableKeyCodec = collectionCodec<R.PublishableKeyRecord, 'PKEY'>('PKEY');

// ---- Appointments and what hangs off them ----------------------------------------------------

/** An appointment on both time orderings: the practice's (gsi1, by UTC month) and its client's (gsi2). */
export const appointmentIndexKeys = (medspaId: string, clientId: string, scheduledAt: string, id: string) => ({
  ...appointmentTimeIndexKeys(medspaId, scheduledAt, id),
  ...clientAppointmentsIndexKeys(medspaId, clientId, scheduledAt, id),
});

export const appointmentCodec = codec<R.AppointmentRecord, 'APPOINTMENT'>('APPOINTMENT', {
  keyFields: ['medspa_id', 'id'],
  keys: (a) => ({ ...appointmentKey(a.medspa_id, a.id), ...appointmentIndexKeys(a.medspa_id, a.client_id, a.scheduled_at, a.id) }),
});
export const onlineEmailCodec = codec<R.OnlineEmailRecord, 'ONLINE_EMAIL'>('ONLINE_EMAIL', {
  keyFields: ['medspa_id', 'email_hash'],
  keys: (e) => onlineEmailKey(e.medspa_id, e.email_hash),
});

/** A ledger entry is a top-level attribute (`end#<appointment id>`): set or removed without reading the item, which may not exist yet. */
export const LEDGER_ENTRY_PREFIX = 'end#';
export const onlineLedgerCodec = codec<R.OnlineLedgerRecord, 'ONLINE_LEDGER'>('ONLINE_LEDGER', {
  keyFields: ['medspa_id', 'client_id'],
  keys: (l) => onlineLedgerKey(l.medspa_id, l.client_id),
  encode: ({ ends, ...fields }) => ({ ...fields, ...Object.fromEntries(Object.entries(ends).map(([id, end]) => [`${LEDGER_ENTRY_PREFIX}${id}`, end])) }),
  decode: (stored) => {
    const ends: Record<string, string> = {};
    for (const [name, value] of Object.entries(stored)) if (name.startsWith(LEDGER_ENTRY_PREFIX)) ends[name.slice(LEDGER_ENTRY_PREFIX.length)] = String(value);
    return { medspa_id: String(stored.medspa_id), client_id: String(stored.client_id), ends, version: Number(stored.version ?? 0) };
  },
});
export const treatmentRecordCodec = codec<R.TreatmentRecord, 'TREATMENT'>('TREATMENT', {
  keyFields: ['medspa_id', 'appointment_id'],
  keys: (r) => treatmentRecordKey(r.medspa_id, r.appointment_id),
});
export const claimBucketCodec = codec<R.ClaimBucketRecord, 'CLAIM'>('CLAIM', {
  keyFields: ['medspa_id', 'resource', 'resource_id', 'hour'],
  keys: (b) => claimKey(b.medspa_id, b.resource as ClaimedResource, b.resource_id, b.hour),
});
export const reminderCodec = codec<R.ReminderRecord, 'REMINDER'>('REMINDER', {
  keyFields: ['medspa_id', 'appointment_id', 'requested_at', 'event_id'],
  keys: (r) => reminderKey(r.medspa_id, r.appointment_id, r.requested_at, r.event_id),
});
export const reminderDueCodec = codec<R.ReminderDueRecord, 'REMINDER_DUE'>('REMINDER_DUE', {
  keyFields: ['due_minute', 'medspa_id', 'appointment_id', 'scheduled_at'],
  keys: (d) => reminderDueKey(d.due_minute, d.medspa_id, d.appointment_id, d.scheduled_at),
});
export const reminderSentCodec = codec<R.ReminderSentRecord, 'REMINDER_SENT'>('REMINDER_SENT', {
  keyFields: ['medspa_id', 'appointment_id', 'scheduled_at'],
  keys: (s) => reminderSentKey(s.medspa_id, s.appointment_id, s.scheduled_at),
});
export const reminderSweepCodec = codec<R.ReminderSweepRecord, 'REMINDER_SWEEP'>('REMINDER_SWEEP', { keyFields: [], keys: () => reminderSweepCheckpointKey() });

// ---- Payments, products, stock -----------------------------------------------------------------

export const paymentCodec = collectionCodec<R.PaymentRecord, 'PAYMENT'>('PAYMENT', (p) => ({
  ...paymentTimeIndexKeys(p.medspa_id, p.created_at, p.id),
  ...clientPaymentsIndexKeys(p.medspa_id, p.client_id, p.created_at, p.id),
}));
/** A product is on the sparse low-stock index (gsi2) only while low. */
export const productCodec = collectionCodec<R.ProductRecord, 'PRODUCT'>('PRODUCT', (p) => (p.headroom <= 0 ? lowStockIndexKeys(p.medspa_id, p.id) : {}));
export const productSkuCodec = codec<R.ProductSkuRecord, 'PRODUCT_SKU'>('PRODUCT_SKU', {
  keyFields: ['medspa_id', 'normalized_sku'],
  keys: (s) => productSkuKey(s.medspa_id, s.normalized_sku),
});
/** A ledger entry, on the retail-sales index when a sale. */
export const stockAdjustmentCodec = codec<R.StockAdjustmentRecord, 'STOCK_ADJUSTMENT'>('STOCK_ADJUSTMENT', {
  keyFields: ['medspa_id', 'product_id', 'created_at', 'id'],
  keys: (e) => ({ ...stockLedgerKey(e.medspa_id, e.product_id, e.created_at, e.id), ...(e.reason === 'sale' ? retailSalesIndexKeys(e.medspa_id, e.created_at, e.id) : {}) }),
});
export const lowStockCrossingCodec = codec<R.LowStockCrossingRecord, 'LOW_STOCK_EVENT'>('LOW_STOCK_EVENT', {
  keyFields: ['medspa_id', 'occurred_at', 'product_id', 'adjustment_id'],
  keys: (c) => lowStockEventKey(c.medspa_id, c.occurred_at, c.product_id, c.adjustment_id),
});

// ---- Webhooks, audit ---------------------------------------------------------------------------

export const webhookCodec = collectionCodec<R.WebhookRecord, 'WEBHOOK'>('WEBHOOK');

export const DELIVERY_LOG_DAYS = 30;

/** Stored with the event as its JSON text, so a retry by hand sends the very same bytes (a map's key order is not kept); expires after 30 days. */
export const deliveryCodec = codec<R.DeliveryRecord, 'WEBHOOK_DELIVERY'>('WEBHOOK_DELIVERY', {
  keyFields: ['medspa_id', 'subscription_id', 'created_at', 'id'],
  keys: (d) => ({ ...webhookDeliveryKey(d.medspa_id, d.subscription_id, d.created_at, d.id), ...webhookDeliveryLookupIndexKeys(d.medspa_id, d.id) }),
  encode: ({ event, ...entry }) => ({ expires_at: Math.floor(Date.parse(entry.created_at) / 1000) + DELIVERY_LOG_DAYS * 86_400, ...entry, event_json: JSON.stringify(event) }),
  decode: ({ event_json, ...entry }) => ({ ...entry, event: JSON.parse(event_json as string) as ContractEvent }) as R.DeliveryRecord,
});

export const auditCodec = codec<R.AuditRecord, 'AUDIT'>('AUDIT', {
  keyFields: ['medspa_id', 'at', 'request_id'],
  keys: (e) => auditKey(e.medspa_id, e.at, e.request_id),
});

// ---- Report aggregates (lib/db/report-aggregates.ts) -----------------------------------------

export const reportGenerationCodec = codec<R.ReportGenerationRecord, 'REPORT_GENERATION'>('REPORT_GENERATION', {
  keyFields: ['medspa_id'],
  keys: (g) => reportGenerationKey(g.medspa_id),
});
export const reportLedgerCodec = codec<R.ReportLedgerRecord, 'REPORT_LEDGER'>('REPORT_LEDGER', {
  keyFields: ['medspa_id', 'generation', 'record_key'],
  keys: (e) => reportLedgerKey(e.medspa_id, e.generation, e.record_key),
});
export const reportClientVisitsCodec = codec<R.ReportClientVisitsRecord, 'REPORT_CLIENT_VISITS'>('REPORT_CLIENT_VISITS', {
  keyFields: ['medspa_id', 'generation', 'client_id'],
  keys: (c) => reportClientVisitsKey(c.medspa_id, c.generation, c.client_id),
});
/** Its `expires_at` is the table's TTL attribute. */
export const reportStreamMarkerCodec = codec<R.ReportStreamMarkerRecord, 'REPORT_STREAM_MARKER'>('REPORT_STREAM_MARKER', {
  keyFields: ['medspa_id', 'event_id'],
  keys: (m) => reportStreamMarkerKey(m.medspa_id, m.event_id),
});
/** Day items are only ever moved by counter ADDs (lib/db/report-days.ts), which set these tags. */
export const reportTotalsCodec = codec<R.ReportDayRecord, 'REPORT_DAY_TOTALS'>('REPORT_DAY_TOTALS', {
  keyFields: ['medspa_id', 'generation', 'date'],
  keys: (d) => reportDayKey(d.medspa_id, d.generation, 'TOTALS', d.date),
});
export const reportClientsCodec = codec<R.ReportDayRecord, 'REPORT_DAY_CLIENTS'>('REPORT_DAY_CLIENTS', {
  keyFields: ['medspa_id', 'generation', 'date'],
  keys: (d) => reportDayKey(d.medspa_id, d.generation, 'CLIENTS', d.date),
});
