import * as z from 'zod';
import { doc, IdOf, Instant, LocalDate, OutId, PageQuery, schema } from './common';

/** Payments collected from clients (API reference, other resources). Immutable once recorded. */

import { PAYMENT_METHODS } from '../domain/records/common';

export { PAYMENT_METHODS };
export const PaymentMethod = /* @__PURE__ */ schema(() => doc(z.enum(PAYMENT_METHODS), 'How it was paid.', 'card'));

export const CreatePaymentBody = /* @__PURE__ */ schema(() => z
  .object({
    client_id: IdOf('client', 'The paying client (else 404 CLIENT_NOT_FOUND).'),
    appointment_id: IdOf('appointment', 'When given, an appointment of this client (else 404 APPOINTMENT_NOT_FOUND).').nullish(),
    amount_cents: doc(z.number().int().min(1).max(100_000_000), "Amount in the practice's currency, minor units (1-100000000).", 45000),
    method: PaymentMethod,
    note: doc(z.string().trim().max(1000).nullish(), 'A note (at most 1000 characters).', 'Paid at checkout'),
  })
  .strict()
  .describe('A payment received from a client.'));
export type CreatePaymentInput = z.output<typeof CreatePaymentBody>;

export const Payment = /* @__PURE__ */ schema(() => z
  .object({
    id: OutId('payment', 'The payment id.'),
    medspa_id: OutId('practice', 'The practice it belongs to.'),
    client_id: OutId('client', 'The paying client.'),
    appointment_id: OutId('appointment', 'The appointment paid for, if any.').nullable(),
    amount_cents: doc(z.number().int(), 'Amount, minor units.', 45000),
    currency: doc(z.string(), "The practice's currency when the payment was recorded (ISO 4217).", 'USD'),
    method: PaymentMethod,
    note: doc(z.string().nullable(), 'A note.', 'Paid at checkout'),
    version: doc(z.number().int(), 'Always 1: payments are immutable.', 1),
    created_at: Instant('When it was recorded.'),
  })
  .describe('A payment (immutable once recorded).').meta({ id: 'Payment' }));
export type Payment = z.output<typeof Payment>;

export const ListPaymentsQuery = /* @__PURE__ */ schema(() => PageQuery.extend({
  from: doc(LocalDate.optional(), 'Practice-local date, inclusive. With only one of from/to the range is 31 days; with neither, the 31 days ending today.', '2026-11-01'),
  to: doc(LocalDate.optional(), 'Practice-local date, inclusive.', '2026-11-30'),
  client_id: IdOf('client', "Only this client's payments; without dates, all of them.").optional(),
}));
export type ListPaymentsQuery = z.output<typeof ListPaymentsQuery>;
