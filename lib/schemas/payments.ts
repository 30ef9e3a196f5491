import * as z from 'zod';
import { Id, LocalDate, PageQuery } from './common';

/** Payments collected from clients (contract 5). Immutable once recorded. */

import { PAYMENT_METHODS } from '../domain/records';

export { PAYMENT_METHODS };
export const PaymentMethod = z.enum(PAYMENT_METHODS);

export const CreatePaymentBody = z
  .object({
    client_id: Id,
    appointment_id: Id.nullish().describe("When given, an appointment of this client (else 404 APPOINTMENT_NOT_FOUND)."),
    amount_cents: z.number().int().min(1).max(100_000_000).describe("In the practice's currency, minor units."),
    method: PaymentMethod,
    note: z.string().trim().max(1000).nullish(),
  })
  .strict();
export type CreatePaymentInput = z.output<typeof CreatePaymentBody>;

export const Payment = z.object({
  id: z.string(),
  medspa_id: z.string(),
  client_id: z.string(),
  appointment_id: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: z.string().describe("The practice's currency when the payment was recorded (ISO 4217)."),
  method: PaymentMethod,
  note: z.string().nullable(),
  version: z.number().int(),
  created_at: z.string(),
});
export type Payment = z.output<typeof Payment>;

export const ListPaymentsQuery = PageQuery.extend({
  from: LocalDate.optional().describe('Practice-local date, inclusive. With only one of from/to the range is 31 days; with neither, the 31 days ending today.'),
  to: LocalDate.optional().describe('Practice-local date, inclusive.'),
  client_id: Id.optional().describe("Only this client's payments; without dates, all of them."),
});
export type ListPaymentsQuery = z.output<typeof ListPaymentsQuery>;
