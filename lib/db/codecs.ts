import { onlineBookingOf } from '../domain/online-booking';
import { HOLD_ITEM_RETENTION_SECONDS } from '../domain/holds';
import { DEFAULT_WAITLIST_OFFER_MINUTES } from '../domain/waitlist';
import type * as R from '../domain/records';
import type * as z from '../schemas/zod';
import { DataFailure } from './failure';
import * as S from './stored';
import {
  appointmentKey,
  appointmentTimeIndexKeys,
  appointmentOfTimeIndexSk,
  auditKey,
  claimKey,
  clientAppointmentsIndexKeys,
  clientPaymentsIndexKeys,
  clientSearchKey,
  clientPlanKey,
  clientPlansIndexKeys,
  planBalanceKey,
  planSweepCheckpointKey,
  planLedgerKey,
  onlineEmailKey,
  onlineLedgerKey,
  holdKey,
  holdIpLedgerKey,
  seriesKey,
  consentKey,
  consentedClientKey,
  contactConsentChangeKey,
  contactConsentStateKey,
  clientFormSubmissionsIndexKeys,
  formTemplateVersionKey,
  formsCatalogKey,
  formsSummaryKey,
  clientPhotosIndexKeys,
  credentialLookupIndexKey,
  entityKey,
  eventFeedHeadKey,
  eventFeedKey,
  eventIdKey,
  lowStockEventKey,
  lowStockIndexKeys,
  lotExposureKey,
  lotRecallNoticeKey,
  lotNumberKey,
  productLotsIndexKeys,
  paymentTimeIndexKeys,
  planSaleKey,
  planSalesIndexKeys,
  practiceIdOf,
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
  retailSalesIndexKeys,
  stockLedgerKey,
  treatmentRecordKey,
  treatmentRevisionKey,
  webhookDeliveryKey,
  webhookDeliveryLookupIndexKeys,
  webhookRetryDueKey,
  webhookRetrySweepCheckpointKey,
  waitlistEntryIndexKeys,
  waitlistFreedKey,
  waitlistDueKey,
  waitlistOfferKey,
  waitlistSweepCheckpointKey,
  type ClaimedResource,
  type EntityType,
  type Key,
} from './keys';

/**
 * THE catalog of stored kinds: one codec per kind, how its record (lib/domain/records) becomes a
 * table item and back. `toItem` adds the keys, index keys and `entity` tag; `fromItem` decodes: an
 * item tagged as another kind, or whose fields are not its kind's stored shape (./stored.ts), is a
 * DataFailure `corrupt`, never a record; the keys and storage attributes are left behind. `keyOf`
 * rebuilds an item's key from its own fields, so a stream consumer (lib/db/stream.ts, which knows
 * every codec exported here by its tag) takes an item for what its tag says only when its key
 * agrees. Every repository writes and reads through its kind's codec. A new stored kind is one
 * record type (lib/domain/records), one stored shape and one codec here. The idempotency and
 * rate-limit records (lib/db/idempotency.ts, lib/db/rate-limits.ts) are request bookkeeping without
 * one: their keys name the credential, which their items do not hold.
 */
export interface Codec<T, E extends string = string> {
  entity: E;
  keyOf(item: Record<string, unknown>): Key | null;
  toItem(record: T): Record<string, unknown>;
  /** The record an item holds (null when there is no item); throws DataFailure `corrupt` when it is none of this kind. */
  fromItem(item: Record<string, unknown> | undefined): T | null;
}

/** A codec of a practice's `{TYPE}` collection (keyed by id): what the collection reads take. */
export type CollectionCodec<T, E extends EntityType = EntityType> = Codec<T, E> & { collection: true };

interface Shape<T, S> {
  /** The fields the key is built from: an item missing one is no item of this kind. */
  keyFields: readonly (keyof T & string)[];
  /** Its key, plus the index keys it is on. */
  keys(record: T): Key & object;
  /** What an item must hold: parsed once per item read (it also leaves the keys and storage attributes behind). */
  stored: z.ZodMiniType<S>;
  /** The stored attributes, when they differ from the record's fields. */
  encode?(record: T): Record<string, unknown>;
  /** The record from the parsed attributes (and the item, for what only its key or dynamic attributes hold). */
  decode?(stored: S, item: Record<string, unknown>): T;
}

const isText = (value: unknown) => typeof value === 'string' && value.length > 0;

/** Annotated pure so a bundle keeps only the codecs it uses (esbuild drops the others). */
/* @__NO_SIDE_EFFECTS__ */ function codec<T, E extends string, S = T>(entity: E, shape: Shape<T, S>): Codec<T, E> {
  return {
    entity,
    keyOf: (item) => {
      if (!shape.keyFields.every((field) => isText(item[field]))) return null;
      const { pk, sk } = shape.keys(item as T);
      return { pk, sk };
    },
    toItem: (record) => ({ ...shape.keys(record), entity, ...(shape.encode ? shape.encode(record) : record) }),
    fromItem: (item) => {
      if (!item) return null;
      if (item.entity !== entity) throw corruptItem(entity, item, ['entity']);
      const parsed = shape.stored.safeParse(item);
      if (!parsed.success)
        throw corruptItem(
          entity,
          item,
          parsed.error.issues.map((issue) => issue.path.join('.') || '(item)'),
        );
      return shape.decode ? shape.decode(parsed.data, item) : (parsed.data as unknown as T);
    },
  };
}

/** The one kind whose key holds what a person typed (client search terms): its sort key is never named. */
const PRIVATE_SORT_KEYS: ReadonlySet<string> = new Set(['CLIENT_SEARCH']);

/** A failure naming the kind, the key and the fields that do not decode: never a value. */
function corruptItem(entity: string, item: Record<string, unknown>, fields: string[]): DataFailure {
  const sk = PRIVATE_SORT_KEYS.has(entity) ? '(withheld)' : String(item.sk);
  return new DataFailure(
    'corrupt',
    `item ${String(item.pk)} | ${sk} does not decode as ${entity}: ${[...new Set(fields)].join(', ')}`,
  );
}

/**
 * The decoder of a projection read of one kind (a Query's ProjectionExpression): the attributes
 * read, checked by a narrow stored shape of their own. Such an item holds no `entity` tag (it was
 * not read), so the kind is known from where it was read; a field of the wrong type or missing is
 * a DataFailure `corrupt` naming the kind and the fields, never a value.
 */
/* @__NO_SIDE_EFFECTS__ */ export function projectionCodec<T>(
  entity: string,
  stored: z.ZodMiniType<T>,
): Pick<Codec<T>, 'fromItem'> {
  return {
    fromItem: (item) => {
      if (!item) return null;
      const parsed = stored.safeParse(item);
      if (parsed.success) return parsed.data;
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(item)'))];
      return failProjection(entity, fields);
    },
  };
}

const failProjection = (entity: string, fields: string[]): never => {
  throw new DataFailure('corrupt', `a projection read of ${entity} does not decode: ${fields.join(', ')}`);
};

/** A record of a practice's `{TYPE}` collection, keyed by its id. */
/* @__NO_SIDE_EFFECTS__ */ function collectionCodec<T extends { medspa_id: string; id: string }, E extends EntityType>(
  type: E,
  stored: z.ZodMiniType<T>,
  indexKeys: (record: T) => object = () => ({}),
): CollectionCodec<T, E> {
  return {
    ...codec<T, E>(type, {
      keyFields: ['medspa_id', 'id'],
      stored,
      keys: (r) => ({ ...entityKey(r.medspa_id, type, r.id), ...indexKeys(r) }),
    }),
    collection: true,
  };
}

// ---- Practice, setup resources, clients ------------------------------------------------------

/** Practices stored before online booking and CORS existed read with those settings' defaults. */
export const practiceCodec = codec('PRACTICE', {
  keyFields: ['id'],
  keys: (p: R.PracticeRecord) => practiceKey(p.id),
  stored: S.storedPractice,
  decode: (stored): R.PracticeRecord => ({
    ...stored,
    online_booking: onlineBookingOf(stored.online_booking),
    allowed_origins: stored.allowed_origins ?? [],
    cancellation_policy: stored.cancellation_policy ?? null,
    waitlist_offer_minutes: stored.waitlist_offer_minutes ?? DEFAULT_WAITLIST_OFFER_MINUTES,
  }),
});
export const providerCodec = collectionCodec('PROVIDER', S.storedProvider);
export const roomCodec = collectionCodec('ROOM', S.storedFacility);
export const equipmentCodec = collectionCodec('EQUIPMENT', S.storedFacility);
export const serviceCodec = collectionCodec('SERVICE', S.storedService);
export const clientCodec = collectionCodec('CLIENT', S.storedClient);
export const clientSearchCodec = codec<R.ClientSearchRecord, 'CLIENT_SEARCH'>('CLIENT_SEARCH', {
  keyFields: ['medspa_id', 'term', 'client_id'],
  keys: (e) => clientSearchKey(e.medspa_id, e.term, e.client_id),
  stored: S.storedClientSearch,
});
export const consentCodec = codec<R.ConsentRecord, 'CONSENT'>('CONSENT', {
  keyFields: ['medspa_id', 'client_id', 'signed_at', 'id'],
  keys: (c) => consentKey(c.medspa_id, c.client_id, c.signed_at, c.id),
  stored: S.storedConsent,
});
export const contactConsentStateCodec = codec<R.ContactConsentStateRecord, 'CONTACT_CONSENT_STATE'>(
  'CONTACT_CONSENT_STATE',
  {
    keyFields: ['medspa_id', 'client_id'],
    keys: (s) => contactConsentStateKey(s.medspa_id, s.client_id),
    stored: S.storedContactConsentState,
  },
);
/** A recorded change: the stream's source of `client.contact_consent_changed`. */
export const contactConsentChangeCodec = codec<R.ContactConsentChangeRecord, 'CONTACT_CONSENT'>('CONTACT_CONSENT', {
  keyFields: ['medspa_id', 'client_id'],
  keys: (c) => contactConsentChangeKey(c.medspa_id, c.client_id, c.sequence),
  stored: S.storedContactConsentChange,
});
export const consentedClientCodec = codec<R.ConsentedClientRecord, 'CONSENTED_CLIENT'>('CONSENTED_CLIENT', {
  keyFields: ['medspa_id', 'consent', 'client_id'],
  keys: (c) => consentedClientKey(c.medspa_id, c.consent, c.client_id),
  stored: S.storedConsentedClient,
});
export const photoCodec = collectionCodec('PHOTO', S.storedPhoto, (p) =>
  clientPhotosIndexKeys(p.medspa_id, p.client_id, p.created_at, p.id),
);
export const credentialCodec = collectionCodec('CRED', S.storedCredential, (c) =>
  credentialLookupIndexKey(c.client_id),
);
export const publishableKeyCodec = collectionCodec('PKEY', S.storedPublishableKey);

// ---- Forms (section 14, docs/decisions/0029) --------------------------------------------------

export const formTemplateCodec = collectionCodec('FORM_TEMPLATE', S.storedFormTemplate);
/** A template version: the template as it was at that version, written once. */
export const formTemplateVersionCodec = codec<R.FormTemplateRecord, 'FORM_TEMPLATE_VERSION'>('FORM_TEMPLATE_VERSION', {
  keyFields: ['medspa_id', 'id'],
  keys: (t) => formTemplateVersionKey(t.medspa_id, t.id, t.version),
  stored: S.storedFormTemplate,
});
export const formSubmissionCodec = collectionCodec('FORM_SUBMISSION', S.storedFormSubmission, (f) =>
  clientFormSubmissionsIndexKeys(f.medspa_id, f.client_id, f.submitted_at, f.id),
);

/** Top-level attributes of the catalog (`tpl#<template>`) and the summary (`exp#<template>`): each set without reading the item. */
export const CATALOG_ENTRY_PREFIX = 'tpl#';
export const SUMMARY_ENTRY_PREFIX = 'exp#';

/** The attributes named `<prefix><id>`, each decoded (a value that does not decode: the item is corrupt). */
function prefixedEntries<V>(
  entity: string,
  item: Record<string, unknown>,
  prefix: string,
  decode: (value: unknown) => V | undefined,
): Record<string, V> {
  const entries: Record<string, V> = {};
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(prefix)) continue;
    const decoded = decode(value);
    if (decoded === undefined) throw corruptItem(entity, item, [name]);
    entries[name.slice(prefix.length)] = decoded;
  }
  return entries;
}

export const formsCatalogCodec = codec<R.FormsCatalogRecord, 'FORMS_CATALOG', { medspa_id: string }>('FORMS_CATALOG', {
  keyFields: ['medspa_id'],
  keys: (c) => formsCatalogKey(c.medspa_id),
  stored: S.storedFormsCatalog,
  encode: ({ templates, ...fields }) => ({
    ...fields,
    ...Object.fromEntries(Object.entries(templates).map(([id, entry]) => [`${CATALOG_ENTRY_PREFIX}${id}`, entry])),
  }),
  decode: (stored, item) => ({
    ...stored,
    templates: prefixedEntries('FORMS_CATALOG', item, CATALOG_ENTRY_PREFIX, (value) => {
      const parsed = S.storedFormsCatalogEntry.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    }),
  }),
});

export const formsSummaryCodec = codec<
  R.ClientFormsSummaryRecord,
  'FORMS_SUMMARY',
  { medspa_id: string; client_id: string }
>('FORMS_SUMMARY', {
  keyFields: ['medspa_id', 'client_id'],
  keys: (s) => formsSummaryKey(s.medspa_id, s.client_id),
  stored: S.storedFormsSummary,
  encode: ({ latest_expiry, ...fields }) => ({
    ...fields,
    ...Object.fromEntries(Object.entries(latest_expiry).map(([id, at]) => [`${SUMMARY_ENTRY_PREFIX}${id}`, at])),
  }),
  decode: (stored, item) => ({
    ...stored,
    latest_expiry: prefixedEntries('FORMS_SUMMARY', item, SUMMARY_ENTRY_PREFIX, (value) =>
      typeof value === 'string' ? value : undefined,
    ),
  }),
});

// ---- Appointments and what hangs off them ----------------------------------------------------

/** An appointment on both time orderings: the practice's (gsi1, by UTC month) and its client's (gsi2). */
export const appointmentIndexKeys = (medspaId: string, clientId: string, scheduledAt: string, id: string) => ({
  ...appointmentTimeIndexKeys(medspaId, scheduledAt, id),
  ...clientAppointmentsIndexKeys(medspaId, clientId, scheduledAt, id),
});

export const appointmentCodec = codec<R.AppointmentRecord, 'APPOINTMENT'>('APPOINTMENT', {
  keyFields: ['medspa_id', 'id'],
  keys: (a) => ({
    ...appointmentKey(a.medspa_id, a.id),
    ...appointmentIndexKeys(a.medspa_id, a.client_id, a.scheduled_at, a.id),
  }),
  stored: S.storedAppointment,
});
export const onlineEmailCodec = codec<R.OnlineEmailRecord, 'ONLINE_EMAIL'>('ONLINE_EMAIL', {
  keyFields: ['medspa_id', 'email_hash'],
  keys: (e) => onlineEmailKey(e.medspa_id, e.email_hash),
  stored: S.storedOnlineEmail,
});

/** A ledger entry is a top-level attribute (`end#<appointment id>`): set or removed without reading the item, which may not exist yet. */
export const LEDGER_ENTRY_PREFIX = 'end#';
export const onlineLedgerCodec = codec<R.OnlineLedgerRecord, 'ONLINE_LEDGER', Omit<R.OnlineLedgerRecord, 'ends'>>(
  'ONLINE_LEDGER',
  {
    keyFields: ['medspa_id', 'client_id'],
    keys: (l) => onlineLedgerKey(l.medspa_id, l.client_id),
    stored: S.storedOnlineLedger,
    encode: ({ ends, ...fields }) => ({
      ...fields,
      ...Object.fromEntries(Object.entries(ends).map(([id, end]) => [`${LEDGER_ENTRY_PREFIX}${id}`, end])),
    }),
    decode: (stored, item) => {
      const ends: Record<string, string> = {};
      for (const [name, value] of Object.entries(item)) {
        if (!name.startsWith(LEDGER_ENTRY_PREFIX)) continue;
        if (typeof value !== 'string') throw corruptItem('ONLINE_LEDGER', item, [name]);
        ends[name.slice(LEDGER_ENTRY_PREFIX.length)] = value;
      }
      return { ...stored, ends };
    },
  },
);
/**
 * A hold: its `expires_at` (ISO) is stored as `hold_expires_at`, since the item's `expires_at` is
 * the table's TTL attribute (epoch seconds): a day after the hold expires the item goes.
 */
export const holdCodec = codec<R.HoldRecord, 'HOLD', S.StoredHold>('HOLD', {
  keyFields: ['medspa_id', 'id'],
  keys: (h) => holdKey(h.medspa_id, h.id),
  stored: S.storedHold,
  encode: ({ expires_at, ...fields }) => ({
    ...fields,
    hold_expires_at: expires_at,
    expires_at: Math.ceil(Date.parse(expires_at) / 1000) + HOLD_ITEM_RETENTION_SECONDS,
  }),
  decode: ({ hold_expires_at, ...fields }) => ({ ...fields, expires_at: hold_expires_at }),
});
/** A series: the item's `expires_at` is the table's TTL, a day past its pending claims' expiry (a series that never committed goes). */
export const seriesCodec = codec<R.SeriesRecord, 'SERIES'>('SERIES', {
  keyFields: ['medspa_id', 'id'],
  keys: (s) => seriesKey(s.medspa_id, s.id),
  stored: S.storedSeries,
  encode: (fields) => ({
    ...fields,
    ...(fields.status === 'pending'
      ? { expires_at: Math.ceil(Date.parse(fields.claims_until) / 1000) + HOLD_ITEM_RETENTION_SECONDS }
      : {}),
  }),
});
export const holdIpLedgerCodec = codec<R.HoldIpLedgerRecord, 'HOLD_IPS'>('HOLD_IPS', {
  keyFields: ['medspa_id', 'ip_hash'],
  keys: (l) => holdIpLedgerKey(l.medspa_id, l.ip_hash),
  stored: S.storedHoldIpLedger,
});
export const treatmentRecordCodec = codec<R.TreatmentRecord, 'TREATMENT', S.StoredTreatmentRecord>('TREATMENT', {
  keyFields: ['medspa_id', 'appointment_id'],
  keys: (r) => treatmentRecordKey(r.medspa_id, r.appointment_id),
  stored: S.storedTreatmentRecord,
  // Items written before the practice was stored hold it only in their key; before sign and lock, they were drafts.
  decode: (stored, item) => ({
    ...stored,
    medspa_id: stored.medspa_id ?? practiceIdOf(String(item.pk)),
    status: stored.status ?? 'draft',
    signed_at: stored.signed_at ?? null,
    signed_by: stored.signed_by ?? null,
    revision: stored.revision ?? null,
    amendment_reason: stored.amendment_reason ?? null,
  }),
});
/** A signed record's revisions beside it in the appointment's partition, oldest first (`treatment_record.signed` / `.amended`). */
export const treatmentRevisionCodec = codec<R.TreatmentRevisionRecord, 'TREATMENT_REVISION'>('TREATMENT_REVISION', {
  keyFields: ['medspa_id', 'appointment_id'],
  keys: (r) => treatmentRevisionKey(r.medspa_id, r.appointment_id, r.revision),
  stored: S.storedTreatmentRevision,
});
export const claimBucketCodec = codec<R.ClaimBucketRecord, 'CLAIM'>('CLAIM', {
  keyFields: ['medspa_id', 'resource', 'resource_id', 'hour'],
  keys: (b) => claimKey(b.medspa_id, b.resource as ClaimedResource, b.resource_id, b.hour),
  stored: S.storedClaimBucket,
});
export const reminderCodec = codec<R.ReminderRecord, 'REMINDER'>('REMINDER', {
  keyFields: ['medspa_id', 'appointment_id', 'requested_at', 'event_id'],
  keys: (r) => reminderKey(r.medspa_id, r.appointment_id, r.requested_at, r.event_id),
  stored: S.storedReminder,
});
export const reminderDueCodec = codec<R.ReminderDueRecord, 'REMINDER_DUE'>('REMINDER_DUE', {
  keyFields: ['due_minute', 'medspa_id', 'appointment_id', 'scheduled_at'],
  keys: (d) => reminderDueKey(d.due_minute, d.medspa_id, d.appointment_id, d.scheduled_at),
  stored: S.storedReminderDue,
});
export const reminderSentCodec = codec<R.ReminderSentRecord, 'REMINDER_SENT'>('REMINDER_SENT', {
  keyFields: ['medspa_id', 'appointment_id', 'scheduled_at'],
  keys: (s) => reminderSentKey(s.medspa_id, s.appointment_id, s.scheduled_at),
  stored: S.storedReminderSent,
});
export const reminderSweepCodec = codec<R.ReminderSweepRecord, 'REMINDER_SWEEP'>('REMINDER_SWEEP', {
  keyFields: [],
  keys: () => reminderSweepCheckpointKey(),
  stored: S.storedReminderSweep,
});

/**
 * The waitlist (docs/decisions/0032): entries (the `WAITLIST` collection, on the by-service index
 * and, while waiting, the waiting index), freed times, offers by hold, holds due to expire by minute.
 */
export const waitlistEntryCodec = collectionCodec('WAITLIST', S.storedWaitlistEntry, (e) =>
  waitlistEntryIndexKeys(e.medspa_id, e.service_id, e.created_at, e.id, e.status === 'waiting'),
);
/** A freed time's item vanishes (TTL) a day after its span ended. */
export const waitlistFreedCodec = codec<R.WaitlistFreedRecord, 'WAITLIST_FREED'>('WAITLIST_FREED', {
  keyFields: ['medspa_id', 'id'],
  keys: (f) => waitlistFreedKey(f.medspa_id, f.id),
  stored: S.storedWaitlistFreed,
  encode: (f) => ({ ...f, expires_at: Math.ceil(Date.parse(f.end) / 1000) + 86_400 }),
});
export const waitlistOfferCodec = codec<R.WaitlistOfferRecord, 'WAITLIST_OFFER'>('WAITLIST_OFFER', {
  keyFields: ['medspa_id', 'hold_id'],
  keys: (o) => waitlistOfferKey(o.medspa_id, o.hold_id),
  stored: S.storedWaitlistOffer,
  // It carries contact details: gone a day after the offer expires.
  encode: (o) => ({
    ...o,
    expires_at: Math.ceil(Date.parse(o.entry.offer?.expires_at ?? o.created_at) / 1000) + 86_400,
  }),
});
export const waitlistDueCodec = codec<R.WaitlistDueRecord, 'WAITLIST_DUE'>('WAITLIST_DUE', {
  keyFields: ['due_minute', 'medspa_id', 'kind', 'id'],
  keys: (d) => waitlistDueKey(d.due_minute, d.medspa_id, d.kind, d.id),
  stored: S.storedWaitlistDue,
});
export const waitlistSweepCodec = codec<R.ReminderSweepRecord, 'WAITLIST_SWEEP'>('WAITLIST_SWEEP', {
  keyFields: [],
  keys: () => waitlistSweepCheckpointKey(),
  stored: S.storedReminderSweep,
});

/** A webhook retry due in a minute (lib/db/webhook-retries.ts), and its sweeper's checkpoint. */
export const webhookRetryDueCodec = codec<R.WebhookRetryDueRecord, 'WEBHOOK_RETRY_DUE'>('WEBHOOK_RETRY_DUE', {
  keyFields: ['due_minute', 'medspa_id', 'delivery_id'],
  keys: (d) => webhookRetryDueKey(d.due_minute, d.medspa_id, d.delivery_id),
  stored: S.storedWebhookRetryDue,
});
export const webhookRetrySweepCodec = codec<R.ReminderSweepRecord, 'WEBHOOK_RETRY_SWEEP'>('WEBHOOK_RETRY_SWEEP', {
  keyFields: [],
  keys: () => webhookRetrySweepCheckpointKey(),
  stored: S.storedReminderSweep,
});

// ---- Payments, products, stock -----------------------------------------------------------------

export const paymentCodec = collectionCodec('PAYMENT', S.storedPayment, (p) => ({
  ...paymentTimeIndexKeys(p.medspa_id, p.created_at, p.id),
  ...clientPaymentsIndexKeys(p.medspa_id, p.client_id, p.created_at, p.id),
}));
/** A product is on the sparse low-stock index (gsi2) only while low. */
export const productCodec = collectionCodec('PRODUCT', S.storedProduct, (p) =>
  p.headroom <= 0 ? lowStockIndexKeys(p.medspa_id, p.id) : {},
);
export const productSkuCodec = codec<R.ProductSkuRecord, 'PRODUCT_SKU'>('PRODUCT_SKU', {
  keyFields: ['medspa_id', 'normalized_sku'],
  keys: (s) => productSkuKey(s.medspa_id, s.normalized_sku),
  stored: S.storedProductSku,
});
/** A ledger entry, on the retail-sales index when a sale. */
export const stockAdjustmentCodec = codec<R.StockAdjustmentRecord, 'STOCK_ADJUSTMENT'>('STOCK_ADJUSTMENT', {
  keyFields: ['medspa_id', 'product_id', 'created_at', 'id'],
  keys: (e) => ({
    ...stockLedgerKey(e.medspa_id, e.product_id, e.created_at, e.id),
    ...(e.reason === 'sale' ? retailSalesIndexKeys(e.medspa_id, e.created_at, e.id) : {}),
  }),
  stored: S.storedStockAdjustment,
});
/** A lot, in the `LOT` collection and on its product's lots index (gsi2). */
export const lotCodec = collectionCodec('LOT', S.storedLot, (l) =>
  productLotsIndexKeys(l.medspa_id, l.product_id, l.expires_on, l.id),
);
export const lotNumberCodec = codec<R.LotNumberRecord, 'LOT_NUMBER'>('LOT_NUMBER', {
  keyFields: ['medspa_id', 'product_id', 'normalized_lot_number'],
  keys: (n) => lotNumberKey(n.medspa_id, n.product_id, n.normalized_lot_number),
  stored: S.storedLotNumber,
});
export const lotExposureCodec = codec<R.LotExposureRecord, 'LOT_EXPOSURE'>('LOT_EXPOSURE', {
  keyFields: ['medspa_id', 'lot_id', 'appointment_id'],
  keys: (e) => lotExposureKey(e.medspa_id, e.lot_id, e.appointment_id),
  stored: S.storedLotExposure,
});
export const lotRecallNoticeCodec = codec<R.LotRecallNoticeRecord, 'LOT_RECALL_NOTICE'>('LOT_RECALL_NOTICE', {
  keyFields: ['medspa_id', 'lot_id', 'client_id'],
  keys: (n) => lotRecallNoticeKey(n.medspa_id, n.lot_id, n.client_id),
  stored: S.storedLotRecallNotice,
});
/** Plans on sale; a client plan on its client's index (gsi2); its balances beside it; its ledger by time. */
export const planCodec = collectionCodec('PLAN', S.storedPlan);
/** A plan's sale (immutable), on gsi1 by the UTC month it was sold: the revenue report's source. */
export const planSaleCodec = codec<R.PlanSaleRecord, 'PLAN_SALE'>('PLAN_SALE', {
  keyFields: ['medspa_id', 'client_plan_id', 'created_at'],
  keys: (sale) => ({
    ...planSaleKey(sale.medspa_id, sale.client_plan_id),
    ...planSalesIndexKeys(sale.medspa_id, sale.created_at, sale.client_plan_id),
  }),
  stored: S.storedPlanSale,
});
export const clientPlanCodec = codec<R.ClientPlanRecord, 'CLIENT_PLAN'>('CLIENT_PLAN', {
  keyFields: ['medspa_id', 'id', 'client_id', 'created_at'],
  keys: (p) => ({
    ...clientPlanKey(p.medspa_id, p.id),
    ...clientPlansIndexKeys(p.medspa_id, p.client_id, p.created_at, p.id),
  }),
  stored: S.storedClientPlan,
});
/** The plan sweep's checkpoint (lib/db/plan-renewals.ts): the reminders' shape. */
export const planSweepCodec = codec<R.ReminderSweepRecord, 'PLAN_SWEEP'>('PLAN_SWEEP', {
  keyFields: [],
  keys: () => planSweepCheckpointKey(),
  stored: S.storedReminderSweep,
});
export const planBalanceCodec = codec<R.PlanBalanceRecord, 'PLAN_BALANCE'>('PLAN_BALANCE', {
  keyFields: ['medspa_id', 'client_plan_id', 'service_id'],
  keys: (b) => planBalanceKey(b.medspa_id, b.client_plan_id, b.service_id),
  stored: S.storedPlanBalance,
});
export const planLedgerCodec = codec<R.PlanLedgerRecord, 'PLAN_LEDGER'>('PLAN_LEDGER', {
  keyFields: ['medspa_id', 'client_plan_id', 'created_at', 'id'],
  keys: (e) => planLedgerKey(e.medspa_id, e.client_plan_id, e.created_at, e.id),
  stored: S.storedPlanLedger,
});
export const lowStockCrossingCodec = codec<R.LowStockCrossingRecord, 'LOW_STOCK_EVENT'>('LOW_STOCK_EVENT', {
  keyFields: ['medspa_id', 'occurred_at', 'product_id', 'adjustment_id'],
  keys: (c) => lowStockEventKey(c.medspa_id, c.occurred_at, c.product_id, c.adjustment_id),
  stored: S.storedLowStockCrossing,
});

// ---- Webhooks, audit ---------------------------------------------------------------------------

export const webhookCodec = collectionCodec('WEBHOOK', S.storedWebhook);

export const DELIVERY_LOG_DAYS = 30;

/** Stored with the event as its JSON text, so a retry by hand sends the very same bytes (a map's key order is not kept); expires after 30 days. */
export const deliveryCodec = codec<R.DeliveryRecord, 'WEBHOOK_DELIVERY', z.output<typeof S.storedDelivery>>(
  'WEBHOOK_DELIVERY',
  {
    keyFields: ['medspa_id', 'subscription_id', 'created_at', 'id'],
    keys: (d) => ({
      ...webhookDeliveryKey(d.medspa_id, d.subscription_id, d.created_at, d.id),
      ...webhookDeliveryLookupIndexKeys(d.medspa_id, d.id),
    }),
    stored: S.storedDelivery,
    encode: ({ event, ...entry }) => ({
      expires_at: Math.floor(Date.parse(entry.created_at) / 1000) + DELIVERY_LOG_DAYS * 86_400,
      ...entry,
      event_json: JSON.stringify(event),
    }),
    decode: ({ event_json, ...entry }, item) => {
      const event = S.storedEvent.safeParse(parseJson(event_json));
      if (!event.success) throw corruptItem('WEBHOOK_DELIVERY', item, ['event_json']);
      return { ...entry, event: event.data };
    },
  },
);

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The event feed (lib/db/event-feed.ts, docs/decisions/0031): an event at its place, stored as its
 * JSON text with its `type` beside it (the feed's `types` filter) and its TTL; its id's place; the head.
 */
export const feedEventCodec = codec<R.FeedEventRecord, 'FEED_EVENT', z.output<typeof S.storedFeedEvent>>('FEED_EVENT', {
  keyFields: ['medspa_id'],
  keys: (e) => eventFeedKey(e.medspa_id, e.seq),
  stored: S.storedFeedEvent,
  encode: ({ event, ...place }) => ({ ...place, type: event.type, event_json: JSON.stringify(event) }),
  decode: ({ event_json, type: _type, ...place }, item) => {
    const event = S.storedEvent.safeParse(parseJson(event_json));
    if (!event.success) throw corruptItem('FEED_EVENT', item, ['event_json']);
    return { ...place, event: event.data };
  },
});
export const feedEventIdCodec = codec<R.FeedEventIdRecord, 'FEED_EVENT_ID'>('FEED_EVENT_ID', {
  keyFields: ['medspa_id', 'event_id'],
  keys: (e) => eventIdKey(e.medspa_id, e.event_id),
  stored: S.storedFeedEventId,
});
export const feedHeadCodec = codec<R.FeedHeadRecord, 'FEED_HEAD'>('FEED_HEAD', {
  keyFields: ['medspa_id'],
  keys: (h) => eventFeedHeadKey(h.medspa_id),
  stored: S.storedFeedHead,
});

export const auditCodec = codec<R.AuditRecord, 'AUDIT'>('AUDIT', {
  keyFields: ['medspa_id', 'at', 'request_id'],
  keys: (e) => auditKey(e.medspa_id, e.at, e.request_id),
  stored: S.storedAudit,
});

// ---- Report aggregates (lib/db/report-aggregates.ts) -----------------------------------------

export const reportGenerationCodec = codec<R.ReportGenerationRecord, 'REPORT_GENERATION'>('REPORT_GENERATION', {
  keyFields: ['medspa_id'],
  keys: (g) => reportGenerationKey(g.medspa_id),
  stored: S.storedReportGeneration,
});
export const reportLedgerCodec = codec<R.ReportLedgerRecord, 'REPORT_LEDGER'>('REPORT_LEDGER', {
  keyFields: ['medspa_id', 'generation', 'record_key'],
  keys: (e) => reportLedgerKey(e.medspa_id, e.generation, e.record_key),
  stored: S.storedReportLedger,
});
export const reportClientVisitsCodec = codec<R.ReportClientVisitsRecord, 'REPORT_CLIENT_VISITS'>(
  'REPORT_CLIENT_VISITS',
  {
    keyFields: ['medspa_id', 'generation', 'client_id'],
    keys: (c) => reportClientVisitsKey(c.medspa_id, c.generation, c.client_id),
    stored: S.storedReportClientVisits,
  },
);
/** Day items are only ever moved by counter ADDs (lib/db/report-days.ts), which set these tags. */
export const reportTotalsCodec = codec<R.ReportDayRecord, 'REPORT_DAY_TOTALS'>('REPORT_DAY_TOTALS', {
  keyFields: ['medspa_id', 'generation', 'date'],
  keys: (d) => reportDayKey(d.medspa_id, d.generation, 'TOTALS', d.date),
  stored: S.storedReportDay,
});
export const reportClientsCodec = codec<R.ReportDayRecord, 'REPORT_DAY_CLIENTS'>('REPORT_DAY_CLIENTS', {
  keyFields: ['medspa_id', 'generation', 'date'],
  keys: (d) => reportDayKey(d.medspa_id, d.generation, 'CLIENTS', d.date),
  stored: S.storedReportDay,
});

// ---- Projection reads (a Query's ProjectionExpression): each its own narrow codec ---------------

export const serviceCertificationsCodec = projectionCodec('SERVICE', S.storedServiceCertifications);
export const clientSearchEntryCodec = projectionCodec('CLIENT_SEARCH', S.storedClientSearchEntry);
export const credentialClientIdCodec = projectionCodec('CRED', S.storedCredentialClientId);
export const appointmentIdCodec = projectionCodec('APPOINTMENT', S.storedAppointmentId);
const appointmentListEntryStored = projectionCodec('APPOINTMENT', S.storedAppointmentListEntry);
/** An appointment list entry of gsi1n: the projected attributes, with the id and start its gsi1sk names. */
export const appointmentListEntryCodec = {
  fromItem: (item: Record<string, unknown> | undefined) => {
    const stored = appointmentListEntryStored.fromItem(item);
    if (!stored) return null;
    const { gsi1sk, ...fields } = stored;
    return { ...appointmentOfTimeIndexSk(gsi1sk), ...fields };
  },
};
export const providerDeletionStateCodec = projectionCodec('PROVIDER', S.storedProviderDeletionState);
export const webhookFirstFailureCodec = projectionCodec('WEBHOOK', S.storedWebhookFirstFailure);
/** Not a projection, but request bookkeeping without a key codec (see Codec above): the same narrow decoding. */
export const idempotencyRecordCodec = projectionCodec('IDEMPOTENCY', S.storedIdempotency);
export const itemKeyCodec = projectionCodec('(any kind)', S.storedKey);
export const reportDayCountersCodec = projectionCodec('REPORT_DAY', S.storedReportDayCounters);
