import type {
  Appointment,
  ClientRecord,
  Consent,
  Payment,
  Practice,
  ReportClientVisits,
  ReportGeneration,
  ReportLedgerRecord,
  ReportStreamMarker,
  StockAdjustment,
  TreatmentRecord,
} from '../domain/records';
import { fromItem } from './entities';
import {
  appointmentKey,
  appointmentTimeIndexKeys,
  clientAppointmentsIndexKeys,
  clientPaymentsIndexKeys,
  consentKey,
  entityKey,
  lowStockEventKey,
  lowStockIndexKeys,
  paymentTimeIndexKeys,
  practiceKey,
  reminderKey,
  reportClientVisitsKey,
  reportGenerationKey,
  reportLedgerKey,
  reportStreamMarkerKey,
  retailSalesIndexKeys,
  stockLedgerKey,
  treatmentRecordKey,
} from './keys';

/**
 * How each stored record becomes a table item and back: its keys, index keys and `entity` tag
 * on the way in, the bare record on the way out. Repositories write through `toItem`; the stream
 * consumers read images through `fromItem` and tell records apart by `entity`.
 */
export interface Codec<T> {
  entity: string;
  toItem(record: T): Record<string, unknown>;
  fromItem(item: Record<string, unknown> | undefined): T | null;
}

const codec = <T>(entity: string, keysOf: (record: T) => object): Codec<T> => ({
  entity,
  toItem: (record) => ({ ...keysOf(record), entity, ...record }),
  fromItem: (item) => fromItem<T>(item),
});

/** An appointment on both time orderings: the practice's (gsi1, by UTC month) and its client's (gsi2). */
export const appointmentIndexKeys = (medspaId: string, clientId: string, scheduledAt: string, id: string) => ({
  ...appointmentTimeIndexKeys(medspaId, scheduledAt, id),
  ...clientAppointmentsIndexKeys(medspaId, clientId, scheduledAt, id),
});

export const appointmentCodec = codec<Appointment>('APPOINTMENT', (a) => ({
  ...appointmentKey(a.medspa_id, a.id),
  ...appointmentIndexKeys(a.medspa_id, a.client_id, a.scheduled_at, a.id),
}));

export const clientCodec = codec<ClientRecord>('CLIENT', (c) => entityKey(c.medspa_id, 'CLIENT', c.id));

export const consentCodec = codec<Consent>('CONSENT', (c) => consentKey(c.medspa_id, c.client_id, c.signed_at, c.id));

export const paymentCodec = codec<Payment>('PAYMENT', (p) => ({
  ...entityKey(p.medspa_id, 'PAYMENT', p.id),
  ...paymentTimeIndexKeys(p.medspa_id, p.created_at, p.id),
  ...clientPaymentsIndexKeys(p.medspa_id, p.client_id, p.created_at, p.id),
}));

export const practiceCodec = codec<Practice>('PRACTICE', (p) => practiceKey(p.id));

/** A product as stored: its fields plus `headroom` = quantity_on_hand - low_stock_threshold (low while <= 0). */
export type StoredProduct = Omit<import('../domain/records').Product, 'low_stock'> & { headroom: number };

/** A product is on the sparse low-stock index (gsi2) only while low. */
export const productCodec = codec<StoredProduct>('PRODUCT', (p) => ({
  ...entityKey(p.medspa_id, 'PRODUCT', p.id),
  ...(p.headroom <= 0 ? lowStockIndexKeys(p.medspa_id, p.id) : {}),
}));

/** A ledger entry (with its practice), on the retail-sales index when a sale. */
export type StoredStockAdjustment = StockAdjustment & { medspa_id: string };
export const stockAdjustmentCodec = codec<StoredStockAdjustment>('STOCK_ADJUSTMENT', (e) => ({
  ...stockLedgerKey(e.medspa_id, e.product_id, e.created_at, e.id),
  ...(e.reason === 'sale' ? retailSalesIndexKeys(e.medspa_id, e.created_at, e.id) : {}),
}));

/** A product crossing to or below its threshold: the stream turns it into `product.low_stock`. */
export interface LowStockCrossing {
  medspa_id: string;
  product_id: string;
  adjustment_id: string;
  quantity_on_hand: number;
  low_stock_threshold: number;
  occurred_at: string;
  /** The product as of the crossing, so the event needs no second read. */
  product: StoredProduct;
}
export const lowStockCrossingCodec = codec<LowStockCrossing>('LOW_STOCK_EVENT', (c) => lowStockEventKey(c.medspa_id, c.occurred_at, c.product_id, c.adjustment_id));

export type StoredTreatmentRecord = TreatmentRecord & { medspa_id?: string };
export const treatmentRecordCodec = (medspaId: string) => codec<TreatmentRecord>('TREATMENT', (r) => treatmentRecordKey(medspaId, r.appointment_id));

/** A reminder request: the stream turns it into `appointment.reminder` with this `event_id`. */
export interface ReminderRequest {
  medspa_id: string;
  event_id: string;
  appointment_id: string;
  requested_at: string;
  requested_by: string;
  /** The appointment as read when the reminder was made, so the event needs no second read. */
  appointment: Appointment;
}
export const reminderCodec = codec<ReminderRequest>('REMINDER', (r) => reminderKey(r.medspa_id, r.appointment_id, r.requested_at, r.event_id));

// ---- Report aggregates (lib/db/report-aggregates.ts) -----------------------------------------

export const reportGenerationCodec = codec<ReportGeneration>('REPORT_GENERATION', (g) => reportGenerationKey(g.medspa_id));
export const reportLedgerCodec = codec<ReportLedgerRecord>('REPORT_LEDGER', (e) => reportLedgerKey(e.medspa_id, e.generation, e.record_key));
export const reportClientVisitsCodec = codec<ReportClientVisits>('REPORT_CLIENT_VISITS', (c) => reportClientVisitsKey(c.medspa_id, c.generation, c.client_id));
/** Its `expires_at` is the table's TTL attribute. */
export const reportStreamMarkerCodec = codec<ReportStreamMarker>('REPORT_STREAM_MARKER', (m) => reportStreamMarkerKey(m.medspa_id, m.event_id));
/** Day items hold counters as top-level numbers (see lib/domain/report-aggregates.ts), tagged with these. */
export const REPORT_DAY_ENTITY = { TOTALS: 'REPORT_DAY_TOTALS', CLIENTS: 'REPORT_DAY_CLIENTS' } as const;
