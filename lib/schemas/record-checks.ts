import type { z } from 'zod';
import type * as records from '../domain/records';
import type { Appointment, TreatmentRecord } from './appointments';
import type { Consent } from './clients';
import type { Payment } from './payments';
import type { Practice } from './practice';
import type { Product, StockAdjustment } from './products';
import type { ClientRecord } from './resources';

/**
 * Compile-time only: each public schema describes exactly its stored record's fields (same names,
 * same types), so the response shaper can never drop or invent one silently.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;

export type RecordChecks = [
  Check<Same<z.output<typeof Appointment>, records.Appointment>>,
  Check<Same<z.output<typeof Consent>, records.Consent>>,
  Check<Same<z.output<typeof Payment>, records.Payment>>,
  Check<Same<z.output<typeof Practice>, records.Practice>>,
  Check<Same<z.output<typeof Product>, records.Product>>,
  Check<Same<z.output<typeof StockAdjustment>, records.StockAdjustment>>,
  Check<Same<TreatmentRecord, records.TreatmentRecord>>,
  Check<Same<ClientRecord, records.ClientRecord>>,
];
