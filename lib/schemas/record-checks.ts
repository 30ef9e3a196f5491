import type * as z from './zod';
import type * as records from '../domain/records';
import type { Appointment } from './appointments';
import type { TreatmentRecord } from './treatment-records';
import type { Consent } from './clients';
import type { Payment } from './payments';
import type { Practice } from './practice';
import type { Lot, Product, StockAdjustment } from './products';

/**
 * Compile-time only: each public schema describes exactly its stored record's fields (same names,
 * same types) but the storage-only ones named here, so the response shaper can never drop or
 * invent one silently. Records derived from a schema (setup resources, clients) need no check.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;

export type RecordChecks = [
  Check<Same<z.output<typeof Appointment>, records.AppointmentRecord>>,
  Check<Same<z.output<typeof Consent>, records.ConsentRecord>>,
  Check<Same<z.output<typeof Payment>, records.PaymentRecord>>,
  Check<Same<z.output<typeof Practice>, records.PracticeRecord>>,
  /** `low_stock` is computed from the stored `headroom`. */
  Check<Same<Omit<z.output<typeof Product>, 'low_stock'>, Omit<records.ProductRecord, 'headroom'>>>,
  Check<Same<z.output<typeof StockAdjustment>, Omit<records.StockAdjustmentRecord, 'medspa_id'>>>,
  Check<Same<z.output<typeof Lot>, Omit<records.LotRecord, 'medspa_id'>>>,
  Check<Same<TreatmentRecord, Omit<records.TreatmentRecord, 'medspa_id'>>>,
];
