import type * as R from '../domain/records';
import {
  API_ACCESS,
  APPOINTMENT_SOURCES,
  MEMBERSHIP_STATUSES,
  PAYMENT_KINDS,
  PAYMENT_METHODS,
} from '../domain/records/common';
import { CHARGE_TYPES, DEPOSIT_TYPES, FEE_KINDS, FEE_STATUSES, NO_DEPOSIT } from '../domain/deposits';
import { ALL_EVENT_TYPES, type ContractEvent, type EventType } from '../domain/events';
import { APPOINTMENT_STATUSES } from '../domain/status';
import {
  CONSENT_CHANNELS,
  CONSENT_PURPOSES,
  CONSENT_SOURCES,
  CONSENT_STATUSES,
  LISTED_CONSENTS,
} from '../domain/contact-consent';
import { LOT_STATUSES, STOCK_REASONS } from '../domain/stock';
import { INJECTION_SITES, RECORD_STATUSES } from '../domain/treatment-records';
import { CLIENT_PLAN_STATUSES, LEDGER_KINDS, PLAN_KINDS } from '../domain/plans';
import { ROLES } from '../auth/roles';
import { PHOTO_CONTENT_TYPES, PHOTO_PHASES, PHOTO_STATUSES } from '../domain/photos';
import { FIELD_TYPES, FORM_KINDS, SUBMISSION_SOURCES } from '../domain/forms';
import * as z from '../schemas/zod';

/**
 * The stored shape of every kind (lib/db/codecs.ts): what a codec parses an item with before the
 * item leaves the data layer. Types only, not the API's input rules (lengths, formats): those held
 * when the item was written; a read checks the item is a record of its kind at all. An object
 * strips what it does not name, so the keys, index keys and `entity` never reach a record; the
 * checks at the end make each schema name exactly its record's fields, so none is stripped by
 * mistake either.
 */

/** Each schema is built only in the bundles that use it (see lib/schemas/common.ts `schema`). */
/* @__NO_SIDE_EFFECTS__ */ function built<T>(build: () => T): T {
  return build();
}

const text = /* @__PURE__ */ built(() => z.string());
const count = /* @__PURE__ */ built(() => z.number());
const nullableText = /* @__PURE__ */ built(() => z.nullable(z.string()));
const versioned = /* @__PURE__ */ built(() => ({ version: count, created_at: text, updated_at: text }));
const deletedAt = /* @__PURE__ */ built(() => z.optional(z.string()));

// ---- Practice, setup resources, clients ------------------------------------------------------

/** A cancellation policy (the practice's, and each appointment's snapshot) and an assessed fee. */
const charge = /* @__PURE__ */ built(() => z.object({ type: z.enum(CHARGE_TYPES), value: count }));
const storedPolicy = /* @__PURE__ */ built(() =>
  z.object({ late_cancel_minutes: count, late_cancel_fee: charge, no_show_fee: charge }),
);
const storedFee = /* @__PURE__ */ built(() =>
  z.object({
    kind: z.enum(FEE_KINDS),
    amount_cents: count,
    deposit_applied_cents: count,
    due_cents: count,
    status: z.enum(FEE_STATUSES),
    assessed_at: text,
    waived_at: nullableText,
    waive_reason: nullableText,
  }),
);

/** Settings added after the first practices were stored are optional here; the codec fills their defaults. */
export const storedPractice = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    name: text,
    time_zone: text,
    currency: text,
    reminder_lead_minutes: count,
    waitlist_offer_minutes: z.optional(count),
    api_access: z.enum(API_ACCESS),
    online_booking: z.optional(
      z.partial(
        z.object({
          enabled: z.boolean(),
          horizon_days: count,
          min_notice_minutes: count,
          cancel_cutoff_minutes: count,
          max_active_bookings_per_client: count,
          deposit_note: z.nullable(text),
        }),
      ),
    ),
    allowed_origins: z.optional(z.array(text)),
    cancellation_policy: z.optional(z.nullable(storedPolicy)),
    ...versioned,
  }),
);

const period = /* @__PURE__ */ built(() => z.object({ start: text, end: text }));
const day = /* @__PURE__ */ built(() => z.optional(z.array(period)));

export const storedProvider = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    first_name: text,
    last_name: text,
    full_name: text,
    email: nullableText,
    title: nullableText,
    working_hours: z.object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }),
    time_off: z.array(z.object({ start: text, end: text, reason: z.optional(text) })),
    active: z.boolean(),
    deleted_at: deletedAt,
    ...versioned,
  }),
);

export const storedFacility = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    name: text,
    description: nullableText,
    active: z.boolean(),
    deleted_at: deletedAt,
    ...versioned,
  }),
);

export const storedService = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    name: text,
    description: nullableText,
    category: nullableText,
    price_cents: count,
    duration_minutes: count,
    // Services and appointments stored before buffers existed have none.
    buffer_before_minutes: z._default(count, 0),
    buffer_after_minutes: z._default(count, 0),
    active: z.boolean(),
    provider_ids: z.array(text),
    // Services stored before deposits ask none.
    deposit: z._default(z.object({ type: z.enum(DEPOSIT_TYPES), value: count }), () => ({ ...NO_DEPOSIT })),
    // Services stored before forms (section 14) require none.
    required_form_template_ids: z._default(z.array(text), () => []),
    ...versioned,
  }),
);

const addressPart = /* @__PURE__ */ built(() => z.nullable(z.string()));

export const storedClient = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    first_name: text,
    last_name: text,
    email: nullableText,
    phone: nullableText,
    date_of_birth: nullableText,
    address: z.nullable(
      z.object({
        line1: addressPart,
        line2: addressPart,
        city: addressPart,
        region: addressPart,
        postal_code: addressPart,
        country: addressPart,
      }),
    ),
    membership_status: z.enum(MEMBERSHIP_STATUSES),
    membership_tier: nullableText,
    // Clients stored before memberships followed plans have no marker.
    membership_plan_id: z._default(nullableText, null),
    tags: z.array(text),
    notes: nullableText,
    last_visit_at: nullableText,
    total_spent_cents: count,
    visit_count: count,
    no_show_count: z.optional(count),
    deleted_at: deletedAt,
    ...versioned,
  }),
);

export const storedClientSearch = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, term: text, client_id: text, membership_status: text }),
);

export const storedConsent = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    form_name: text,
    signed_at: text,
    appointment_id: nullableText,
    // Consents stored before forms (section 14) came from no submission.
    form_submission_id: z._default(nullableText, null),
    ...versioned,
  }),
);

const storedCurrentConsent = /* @__PURE__ */ built(() =>
  z.object({
    channel: z.enum(CONSENT_CHANNELS),
    purpose: z.enum(CONSENT_PURPOSES),
    status: z.enum(CONSENT_STATUSES),
    source: z.enum(CONSENT_SOURCES),
    updated_at: text,
  }),
);

export const storedContactConsentState = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    client_id: text,
    version: count,
    current: z.array(storedCurrentConsent),
    updated_at: text,
  }),
);

export const storedContactConsentChange = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    client_id: text,
    sequence: count,
    channel: z.enum(CONSENT_CHANNELS),
    purpose: z.enum(CONSENT_PURPOSES),
    status: z.enum(CONSENT_STATUSES),
    source: z.enum(CONSENT_SOURCES),
    evidence: z.nullable(z.object({ text_shown: text })),
    recorded_at: text,
  }),
);

export const storedConsentedClient = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, consent: z.enum(LISTED_CONSENTS), client_id: text, since: text }),
);

export const storedPhoto = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    appointment_id: nullableText,
    phase: z.enum(PHOTO_PHASES),
    area: nullableText,
    content_type: z.enum(PHOTO_CONTENT_TYPES),
    byte_size: count,
    status: z.enum(PHOTO_STATUSES),
    object_key: text,
    ...versioned,
  }),
);

// ---- Forms (section 14) ------------------------------------------------------------------------

const storedFormField = /* @__PURE__ */ built(() =>
  z.object({
    key: text,
    label: text,
    type: z.enum(FIELD_TYPES),
    required: z.boolean(),
    options: z.optional(z.array(text)),
  }),
);
export const storedFormTemplate = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    name: text,
    kind: z.enum(FORM_KINDS),
    body_markdown: text,
    fields: z.array(storedFormField),
    valid_days: z.nullable(count),
    active: z.boolean(),
    ...versioned,
  }),
);
export const storedFormSubmission = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    template_id: text,
    template_version: count,
    kind: z.enum(FORM_KINDS),
    appointment_id: nullableText,
    answers: z.record(z.string(), z.union([text, z.boolean(), z.array(text)])),
    signature: z.nullable(z.object({ name: text, signed_at: text })),
    document_sha256: text,
    source: z.enum(SUBMISSION_SOURCES),
    submitted_at: text,
    expires_at: nullableText,
    consent_id: nullableText,
    client_ip: nullableText,
    user_agent: nullableText,
    ...versioned,
  }),
);
/** The catalog's and the summary's entries are top-level attributes (lib/db/codecs.ts decodes them). */
export const storedFormsCatalog = /* @__PURE__ */ built(() => z.object({ medspa_id: text }));
export const storedFormsSummary = /* @__PURE__ */ built(() => z.object({ medspa_id: text, client_id: text }));
export const storedFormsCatalogEntry = /* @__PURE__ */ built(() =>
  z.object({ name: text, version: count, valid_days: z.nullable(count), active: z.boolean() }),
);

export const storedCredential = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    client_id: text,
    medspa_id: text,
    name: text,
    role: z.enum(ROLES),
    secret_hash: text,
    revoked_at: z.optional(text),
    ...versioned,
  }),
);

const budget = /* @__PURE__ */ built(() => z.object({ requests_per_second: count, burst: count }));

export const storedPublishableKey = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    key: text,
    name: text,
    allowed_origins: z.array(text),
    rate_limits: z.optional(z.object({ per_client_ip: budget, overall: budget })),
    ...versioned,
  }),
);

// ---- Appointments and what hangs off them ----------------------------------------------------

export const storedAppointment = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    service_id: text,
    provider_id: text,
    room_id: nullableText,
    equipment_id: nullableText,
    scheduled_at: text,
    end_at: text,
    duration_minutes: count,
    buffer_before_minutes: z._default(count, 0),
    buffer_after_minutes: z._default(count, 0),
    status: z.enum(APPOINTMENT_STATUSES),
    notes: nullableText,
    internal_notes: nullableText,
    source: z.enum(APPOINTMENT_SOURCES),
    price_cents: count,
    cancelled_at: nullableText,
    cancellation_reason: nullableText,
    manage_generation: z.optional(count),
    // Appointments stored before deposits and fees read as none of either.
    deposit_required_cents: z._default(count, 0),
    deposit_paid_cents: z._default(count, 0),
    cancellation_policy: z._default(z.nullable(storedPolicy), null),
    fees: z._default(z.array(storedFee), () => []),
    hold_id: z.optional(nullableText),
    series_id: z.optional(nullableText),
    client_plan_id: z.optional(nullableText),
    waitlist_entry_id: z.optional(nullableText),
    ...versioned,
  }),
);

/** The hold's `expires_at` is stored as `hold_expires_at`: the item's `expires_at` is the table's TTL (lib/db/codecs.ts). */
export const storedHold = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    service_id: text,
    provider_id: text,
    room_id: nullableText,
    equipment_id: nullableText,
    scheduled_at: text,
    end_at: text,
    duration_minutes: count,
    buffer_before_minutes: count,
    buffer_after_minutes: count,
    hold_expires_at: text,
    deposit_required_cents: count,
    status: z.enum(['active', 'confirmed', 'released']),
    appointment_id: nullableText,
    ip_hash: nullableText,
    ...versioned,
  }),
);

export type StoredHold = z.output<typeof storedHold>;

export const storedSeries = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    status: z.enum(['pending', 'committed']),
    claims_until: text,
    appointment_ids: z.array(text),
    ...versioned,
  }),
);

export const storedHoldIpLedger = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, ip_hash: text, holds: z.record(z.string(), text), version: count }),
);

export const storedOnlineEmail = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, email_hash: text, client_id: text }),
);

/** The ledger's fixed fields; its entries are top-level attributes the codec gathers (lib/db/codecs.ts). */
export const storedOnlineLedger = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, client_id: text, version: z._default(count, 0) }),
);

/** `medspa_id` is absent from items written before it was stored: the codec takes it from the key. */
/** A treatment record as stored: items written before the practice, or before sign and lock, lack those fields. */
type SignFields = 'status' | 'signed_at' | 'signed_by' | 'revision' | 'amendment_reason';
export type StoredTreatmentRecord = Omit<R.TreatmentRecord, 'medspa_id' | SignFields> & {
  medspa_id?: string;
} & { [K in SignFields]?: R.TreatmentRecord[K] };

const storedProductUse = /* @__PURE__ */ built(() =>
  z.object({
    name: text,
    product_id: z.optional(text),
    lot_id: z.optional(text),
    quantity: z.optional(count),
    unit: z.optional(text),
    lot_number: z.optional(text),
    injection_points: z.optional(
      z.array(z.object({ site: z.enum(INJECTION_SITES), units: count, depth: z.optional(text) })),
    ),
  }),
);

export const storedTreatmentRecord = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: z.optional(text),
    appointment_id: text,
    client_id: text,
    provider_id: text,
    recorded_by: text,
    summary: z.optional(text),
    notes: z.optional(text),
    areas_treated: z.optional(z.array(text)),
    products_used: z.optional(z.array(storedProductUse)),
    dosage: z.optional(text),
    follow_up: z.optional(text),
    // Absent on records written before sign and lock: a draft.
    status: z.optional(z.enum(RECORD_STATUSES)),
    signed_at: z.optional(z.nullable(text)),
    signed_by: z.optional(z.nullable(text)),
    revision: z.optional(z.nullable(count)),
    amendment_reason: z.optional(z.nullable(text)),
    ...versioned,
  }),
);

/** A signed revision, kept whole beside its record (written only since sign and lock: every field present). */
export const storedTreatmentRevision = /* @__PURE__ */ built(() =>
  z.extend(storedTreatmentRecord, {
    medspa_id: text,
    status: z.enum(RECORD_STATUSES),
    signed_at: z.nullable(text),
    signed_by: z.nullable(text),
    revision: count,
    amendment_reason: z.nullable(text),
  }),
);

export const storedClaimBucket = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    resource: z.enum(['PROVIDER', 'ROOM', 'EQUIPMENT']),
    resource_id: text,
    hour: text,
    entries: z.record(
      z.string(),
      z.object({
        start: text,
        end: text,
        hold: z.optional(z.literal(true)),
        expires_at: z.optional(text),
        series_id: z.optional(text),
      }),
    ),
    version: count,
  }),
);

export const storedReminder = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    event_id: text,
    appointment_id: text,
    requested_at: text,
    requested_by: text,
    appointment: storedAppointment,
  }),
);

// ---- The waitlist (docs/decisions/0032) ----
const timeSpan = /* @__PURE__ */ built(() => z.object({ start: text, end: text }));
export const storedWaitlistEntry = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    service_id: text,
    provider_ids: z.nullable(z.array(text)),
    windows: z.array(timeSpan),
    expires_at: nullableText,
    status: z.enum(['waiting', 'offered', 'booked', 'expired', 'cancelled']),
    offer: z.nullable(
      z.object({ hold_id: text, scheduled_at: text, provider_id: text, expires_at: text, freed_id: text }),
    ),
    appointment_id: nullableText,
    ...versioned,
  }),
);
export const storedWaitlistFreed = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    id: text,
    provider_id: text,
    service_id: text,
    start: text,
    end: text,
    offered_to: z.optional(text),
    offered: z.array(text),
    ...versioned,
  }),
);
export const storedWaitlistOffer = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    hold_id: text,
    entry_id: text,
    freed_id: text,
    entry: storedWaitlistEntry,
    client: z.object({ id: text, first_name: text, last_name: text, email: nullableText, phone: nullableText }),
    created_at: text,
  }),
);
export const storedWaitlistDue = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, kind: z.enum(['hold', 'entry']), id: text, due_minute: text }),
);

export const storedReminderDue = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, appointment_id: text, scheduled_at: text, due_minute: text, expires_at: count }),
);
export const storedReminderSent = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, appointment_id: text, scheduled_at: text, event_id: text, sent_at: text }),
);
export const storedReminderSweep = /* @__PURE__ */ built(() => z.object({ swept_through: text, updated_at: text }));
export const storedWebhookRetryDue = /* @__PURE__ */ built(() =>
  z.object({
    due_minute: text,
    due_at: text,
    medspa_id: text,
    subscription_id: text,
    delivery_id: text,
    delivery_created_at: text,
    claimed_until: z.optional(text),
    expires_at: count,
  }),
);

// ---- Payments, products, stock -----------------------------------------------------------------

/** Payments stored before payments had a version are at version 1. */
export const storedPayment = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    appointment_id: nullableText,
    amount_cents: count,
    currency: text,
    method: z.enum(PAYMENT_METHODS),
    note: nullableText,
    // Payments stored before kinds were plain payments without a reference.
    kind: z._default(z.enum(PAYMENT_KINDS), 'payment'),
    reference: z._default(nullableText, null),
    version: z._default(count, 1),
    created_at: text,
  }),
);

export const storedProduct = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    name: text,
    sku: text,
    brand: nullableText,
    category: nullableText,
    price_cents: count,
    cost_cents: z.nullable(count),
    quantity_on_hand: count,
    low_stock_threshold: count,
    headroom: count,
    active: z.boolean(),
    // Products stored before lots existed hold stock as one.
    tracks_lots: z._default(z.boolean(), false),
    ...versioned,
  }),
);

export const storedProductSku = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, normalized_sku: text, product_id: text, sku: text }),
);

export const storedStockAdjustment = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    product_id: text,
    delta: count,
    reason: z.enum(STOCK_REASONS),
    unit_price_cents: z.nullable(count),
    note: nullableText,
    quantity_after: count,
    low_stock_crossed: z.boolean(),
    // Entries written before lots and treatment records name neither.
    lot_id: z._default(nullableText, null),
    appointment_id: z._default(nullableText, null),
    created_at: text,
    created_by: text,
  }),
);

export const storedLot = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    product_id: text,
    lot_number: text,
    expires_on: text,
    quantity_on_hand: count,
    status: z.enum(LOT_STATUSES),
    recalled_at: nullableText,
    recall_reason: nullableText,
    // Lots stored before recalls took a reference have none.
    recall_reference: z._default(nullableText, null),
    ...versioned,
  }),
);

export const storedLotNumber = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, product_id: text, normalized_lot_number: text, lot_id: text }),
);

export const storedLotExposure = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    lot_id: text,
    product_id: text,
    appointment_id: text,
    client_id: text,
    provider_id: text,
    treated_at: text,
    quantity: count,
  }),
);

export const storedLotRecallNotice = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    lot_id: text,
    client_id: text,
    recalled_at: text,
    client: z.object({ id: text, first_name: text, last_name: text, email: nullableText, phone: nullableText }),
    lot: z.object({ id: text, product_id: text, lot_number: text }),
    exposures: z.array(z.object({ appointment_id: text, treated_at: text, quantity: count })),
  }),
);

export const storedLowStockCrossing = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    product_id: text,
    adjustment_id: text,
    quantity_on_hand: count,
    low_stock_threshold: count,
    occurred_at: text,
    product: storedProduct,
  }),
);

// ---- Plans, client plans, balances, ledger ------------------------------------------------------

export const storedPlan = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    kind: z.enum(PLAN_KINDS),
    name: text,
    description: nullableText,
    price_cents: count,
    benefits: z.array(z.object({ service_id: text, quantity: count })),
    term_months: z.nullable(count),
    valid_days: z.nullable(count),
    rollover: z.boolean(),
    active: z.boolean(),
    ...versioned,
  }),
);

export const storedPlanSale = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    client_plan_id: text,
    client_id: text,
    plan_id: text,
    price_cents: count,
    created_at: text,
  }),
);

export const storedClientPlan = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_id: text,
    plan_id: text,
    kind: z.enum(PLAN_KINDS),
    name: text,
    price_cents: count,
    service_ids: z.array(text),
    status: z.enum(CLIENT_PLAN_STATUSES),
    starts_on: text,
    current_term: z.nullable(z.object({ starts_on: text, ends_on: text })),
    expires_on: nullableText,
    cancel_reason: nullableText,
    cancel_at_term_end: z.boolean(),
    ...versioned,
  }),
);

export const storedPlanBalance = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    client_plan_id: text,
    service_id: text,
    granted: count,
    reserved: count,
    used: count,
    expired: count,
    remaining: count,
    version: count,
  }),
);

export const storedPlanLedger = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    client_plan_id: text,
    service_id: text,
    kind: z.enum(LEDGER_KINDS),
    quantity: count,
    appointment_id: nullableText,
    reason: nullableText,
    balance_after: z.object({ reserved: count, used: count, remaining: count }),
    created_at: text,
  }),
);

// ---- Webhooks, audit ---------------------------------------------------------------------------

export const storedWebhook = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    url: text,
    events: z.array(text),
    description: nullableText,
    enabled: z.boolean(),
    disabled_reason: nullableText,
    first_failure_at: z.optional(nullableText),
    last_success_at: z.optional(nullableText),
    secret_enc: text,
    previous_secret_enc: z.optional(nullableText),
    previous_secret_expires_at: z.optional(nullableText),
    ...versioned,
  }),
);

const isEventType = (value: unknown): value is EventType => (ALL_EVENT_TYPES as unknown[]).includes(value);

/** The event is stored as its JSON text (lib/db/codecs.ts deliveryCodec): checked here as an envelope, once parsed. */
export const storedEvent = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    type: z.custom<EventType>(isEventType),
    created_at: text,
    medspa_id: text,
    data: z.object({
      object: z.record(z.string(), z.unknown()),
      previous: z.optional(z.record(z.string(), z.unknown())),
    }),
  }),
);

export const storedDelivery = /* @__PURE__ */ built(() =>
  z.object({
    id: text,
    medspa_id: text,
    subscription_id: text,
    event_id: text,
    event_type: z.custom<EventType>(isEventType),
    attempt: count,
    status: z.enum(['pending', 'succeeded', 'failed']),
    response_status: z.nullable(count),
    duration_ms: z.nullable(count),
    error: nullableText,
    next_attempt_at: nullableText,
    created_at: text,
    event_json: text,
  }),
);

/** The event feed (lib/db/codecs.ts): an event at its place (the envelope as JSON text, like a delivery's), its id's place, the head. */
export const storedFeedEvent = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    seq: count,
    expires_at: count,
    type: z.custom<EventType>(isEventType),
    event_json: text,
  }),
);
export const storedFeedEventId = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, event_id: text, seq: count, expires_at: count }),
);
export const storedFeedHead = /* @__PURE__ */ built(() => z.object({ medspa_id: text, seq: count }));

export const storedAudit = /* @__PURE__ */ built(() =>
  z.object({
    medspa_id: text,
    at: text,
    request_id: text,
    client_id: nullableText,
    role: nullableText,
    operation: text,
    method: text,
    resource_id: nullableText,
    outcome: text,
    status: count,
  }),
);

// ---- Report aggregates ---------------------------------------------------------------------------

/** Pointers written before `building` was always set read as building nothing. */
export const storedReportGeneration = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, active: text, building: z._default(nullableText, null), rev: count, updated_at: text }),
);

const countedFacts = /* @__PURE__ */ built(() =>
  z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('appointment'),
      date: text,
      client_id: text,
      provider_id: text,
      service_id: text,
      status: z.enum(APPOINTMENT_STATUSES),
      price_cents: count,
      duration_minutes: count,
    }),
    z.object({ kind: z.literal('payment'), date: text, amount_cents: count }),
    z.object({ kind: z.literal('sale'), date: text, amount_cents: count }),
    z.object({ kind: z.literal('plan'), date: text, amount_cents: count }),
  ]),
);

export const storedReportLedger = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, generation: text, record_key: text, version: count, facts: z.nullable(countedFacts) }),
);
export const storedReportClientVisits = /* @__PURE__ */ built(() =>
  z.object({ medspa_id: text, generation: text, client_id: text, dates: z.record(z.string(), count), rev: count }),
);
/** A day item's fixed fields; its counters are top-level numbers, read by lib/db/report-days.ts. */
export const storedReportDay = /* @__PURE__ */ built(() => z.object({ medspa_id: text, generation: text, date: text }));

// ---- Request bookkeeping without a codec (its key names the credential, which it does not hold) --

/** An Idempotency-Key record (lib/db/idempotency.ts), its response as stored (body as text, gzip, or left out). */
export const storedIdempotency = /* @__PURE__ */ built(() =>
  z.object({
    fingerprint: text,
    status: z.enum(['in_progress', 'completed']),
    lock_id: text,
    locked_until: count,
    committed_at: z.optional(text),
    response: z.optional(
      z.object({
        status: count,
        headers: z.record(z.string(), z.string()),
        body: z.optional(text),
        body_gzip: z.optional(z.custom<Uint8Array>((value) => value instanceof Uint8Array)),
        body_omitted: z.optional(z.literal(true)),
      }),
    ),
  }),
);

// ---- Projection reads: only the attributes a Query's ProjectionExpression reads ----------------

/** A service's certifications as a provider's deletion reads them. */
export const storedServiceCertifications = /* @__PURE__ */ built(() =>
  z.object({ id: text, version: count, provider_ids: z.array(text) }),
);
/** A client search entry's key (its term, then `#` and the client) and client. */
export const storedClientSearchEntry = /* @__PURE__ */ built(() => z.object({ sk: text, client_id: text }));
export const storedCredentialClientId = /* @__PURE__ */ built(() => z.object({ client_id: text }));
export const storedAppointmentId = /* @__PURE__ */ built(() => z.object({ id: text }));
/** An appointment's entry on gsi1n, the list's narrow index: its gsi1sk and lib/db/table.ts APPOINTMENT_LIST_ATTRIBUTES. */
export const storedAppointmentListEntry = /* @__PURE__ */ built(() =>
  z.object({
    gsi1sk: text,
    client_id: text,
    service_id: text,
    provider_id: text,
    duration_minutes: count,
    status: z.enum(APPOINTMENT_STATUSES),
  }),
);
/**
 * What a provider's deletion reads of it: its version, whether deleted, and its count of
 * certifications written (`certification_seq`, lib/db/resources.ts: not a field of the record).
 */
export const storedProviderDeletionState = /* @__PURE__ */ built(() =>
  z.object({
    entity: z.literal('PROVIDER'),
    version: count,
    deleted_at: z.optional(text),
    certification_seq: z.optional(count),
  }),
);
/** What a webhook's first failure update gives back (ReturnValues UPDATED_NEW). */
export const storedWebhookFirstFailure = /* @__PURE__ */ built(() => z.object({ first_failure_at: text }));
/** An item's key alone (a generation's items, deleted by key). */
export const storedKey = /* @__PURE__ */ built(() => z.object({ pk: text, sk: text }));
/**
 * A report day item as read by date range: its sort key, its fixed fields when they were read too,
 * and its counters (top-level attributes). A counter that is not a number is skipped by the reader
 * (lib/db/report-days.ts), as before: test/integration/report-stream-failures.test.ts reads a
 * poisoned day that way.
 */
export const storedReportDayCounters = /* @__PURE__ */ built(() =>
  z.catchall(
    z.object({
      sk: text,
      pk: z.optional(text),
      entity: z.optional(text),
      medspa_id: z.optional(text),
      generation: z.optional(text),
      date: z.optional(text),
    }),
    z.unknown(),
  ),
);

// ---- Compile-time: each schema names exactly its record's fields -------------------------------

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Mutual assignability alone lets an optional field go missing: the field names must agree too. */
type Exact<A, B> = Same<A, B> extends true ? Same<keyof A, keyof B> : false;
type Check<T extends true> = T;
type Of<S extends z.ZodMiniType> = z.output<S>;

/** @public Compile-time only: nothing imports it. */
export type StoredChecks = [
  Check<
    Exact<
      Omit<
        Of<typeof storedPractice>,
        'online_booking' | 'allowed_origins' | 'cancellation_policy' | 'waitlist_offer_minutes'
      >,
      Omit<R.PracticeRecord, 'online_booking' | 'allowed_origins' | 'cancellation_policy' | 'waitlist_offer_minutes'>
    >
  >,
  Check<Exact<Of<typeof storedProvider>, R.ProviderRecord>>,
  Check<Exact<Of<typeof storedFacility>, R.FacilityRecord>>,
  Check<Exact<Of<typeof storedService>, R.ServiceRecord>>,
  Check<Exact<Of<typeof storedClient>, R.ClientRecord>>,
  Check<Exact<Of<typeof storedClientSearch>, R.ClientSearchRecord>>,
  Check<Exact<Of<typeof storedConsent>, R.ConsentRecord>>,
  Check<Exact<Of<typeof storedContactConsentState>, R.ContactConsentStateRecord>>,
  Check<Exact<Of<typeof storedContactConsentChange>, R.ContactConsentChangeRecord>>,
  Check<Exact<Of<typeof storedConsentedClient>, R.ConsentedClientRecord>>,
  Check<Exact<Of<typeof storedPhoto>, R.PhotoRecord>>,
  Check<Exact<Of<typeof storedFormTemplate>, R.FormTemplateRecord>>,
  Check<Exact<Of<typeof storedFormSubmission>, R.FormSubmissionRecord>>,
  Check<Exact<Of<typeof storedFormsCatalogEntry>, R.FormsCatalogEntry>>,
  Check<Exact<Of<typeof storedCredential>, R.CredentialRecord>>,
  Check<Exact<Of<typeof storedPublishableKey>, R.PublishableKeyRecord>>,
  Check<Exact<Of<typeof storedAppointment>, R.AppointmentRecord>>,
  Check<Exact<Of<typeof storedOnlineEmail>, R.OnlineEmailRecord>>,
  Check<Exact<Omit<Of<typeof storedHold>, 'hold_expires_at'>, Omit<R.HoldRecord, 'expires_at'>>>,
  Check<Exact<Of<typeof storedHoldIpLedger>, R.HoldIpLedgerRecord>>,
  Check<Exact<Of<typeof storedSeries>, R.SeriesRecord>>,
  Check<Exact<Of<typeof storedOnlineLedger>, Omit<R.OnlineLedgerRecord, 'ends'>>>,
  Check<Exact<Of<typeof storedTreatmentRecord>, StoredTreatmentRecord>>,
  Check<Exact<Of<typeof storedTreatmentRevision>, R.TreatmentRevisionRecord>>,
  Check<Exact<Of<typeof storedClaimBucket>, R.ClaimBucketRecord>>,
  Check<Exact<Of<typeof storedReminder>, R.ReminderRecord>>,
  Check<Exact<Of<typeof storedReminderDue>, R.ReminderDueRecord>>,
  Check<Exact<Of<typeof storedReminderSent>, R.ReminderSentRecord>>,
  Check<Exact<Of<typeof storedReminderSweep>, R.ReminderSweepRecord>>,
  Check<Exact<Of<typeof storedWebhookRetryDue>, R.WebhookRetryDueRecord>>,
  Check<Exact<Of<typeof storedPayment>, R.PaymentRecord>>,
  Check<Exact<Of<typeof storedProduct>, R.ProductRecord>>,
  Check<Exact<Of<typeof storedProductSku>, R.ProductSkuRecord>>,
  Check<Exact<Of<typeof storedStockAdjustment>, R.StockAdjustmentRecord>>,
  Check<Exact<Of<typeof storedLot>, R.LotRecord>>,
  Check<Exact<Of<typeof storedLotNumber>, R.LotNumberRecord>>,
  Check<Exact<Of<typeof storedLotExposure>, R.LotExposureRecord>>,
  Check<Exact<Of<typeof storedLotRecallNotice>, R.LotRecallNoticeRecord>>,
  Check<Exact<Of<typeof storedLowStockCrossing>, R.LowStockCrossingRecord>>,
  Check<Exact<Of<typeof storedPlan>, R.PlanRecord>>,
  Check<Exact<Of<typeof storedClientPlan>, R.ClientPlanRecord>>,
  Check<Exact<Of<typeof storedPlanSale>, R.PlanSaleRecord>>,
  Check<Exact<Of<typeof storedPlanBalance>, R.PlanBalanceRecord>>,
  Check<Exact<Of<typeof storedPlanLedger>, R.PlanLedgerRecord>>,
  Check<Exact<Of<typeof storedWebhook>, R.WebhookRecord>>,
  Check<Exact<Of<typeof storedEvent>, ContractEvent>>,
  Check<Exact<Omit<Of<typeof storedDelivery>, 'event_json'>, Omit<R.DeliveryRecord, 'event'>>>,
  Check<Exact<Omit<Of<typeof storedFeedEvent>, 'event_json' | 'type'>, Omit<R.FeedEventRecord, 'event'>>>,
  Check<Exact<Of<typeof storedFeedEventId>, R.FeedEventIdRecord>>,
  Check<Exact<Of<typeof storedFeedHead>, R.FeedHeadRecord>>,
  Check<Exact<Of<typeof storedAudit>, R.AuditRecord>>,
  Check<Exact<Of<typeof storedReportGeneration>, R.ReportGenerationRecord>>,
  Check<Exact<Of<typeof storedReportLedger>, R.ReportLedgerRecord>>,
  Check<Exact<Of<typeof storedReportClientVisits>, R.ReportClientVisitsRecord>>,
  Check<Exact<Of<typeof storedReportDay>, R.ReportDayRecord>>,
  Check<Exact<Of<typeof storedWaitlistEntry>, R.WaitlistEntryRecord>>,
  Check<Exact<Of<typeof storedWaitlistFreed>, R.WaitlistFreedRecord>>,
  Check<Exact<Of<typeof storedWaitlistOffer>, R.WaitlistOfferRecord>>,
  Check<Exact<Of<typeof storedWaitlistDue>, R.WaitlistDueRecord>>,
];
