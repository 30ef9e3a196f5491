import * as z from './zod';
import { doc, IdOf, Instant, LocalDate, meta, OutId, PageQuery, schema, Text } from './common';

/** Payments collected from clients (API reference, other resources). Immutable once recorded. */

import { PAYMENT_KINDS, PAYMENT_METHODS } from '../domain/records/common';

export { PAYMENT_METHODS };
export const PaymentKind = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(PAYMENT_KINDS),
    "payment (default); deposit: raises its appointment's deposit_paid_cents; fee: pays its appointment's due fee (400 at amount_cents when nothing is due or above what is due); plan: a plan sale.",
    'payment',
  ),
);
const Reference = /* @__PURE__ */ schema(() =>
  doc(
    z.nullable(z.string()),
    "The processor's id of the charge (e.g. a Stripe PaymentIntent id); never card data.",
    'pi_3QZx8B2eZvKYlo2C1a2b3c4d',
  ),
);
export const PaymentMethod = /* @__PURE__ */ schema(() => doc(z.enum(PAYMENT_METHODS), 'How it was paid.', 'card'));

export const CreatePaymentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      client_id: IdOf('client', 'The paying client (else 404 CLIENT_NOT_FOUND).'),
      appointment_id: z.nullish(
        IdOf('appointment', 'When given, an appointment of this client (else 404 APPOINTMENT_NOT_FOUND).'),
      ),
      amount_cents: doc(
        z.number().check(z.int(), z.gte(1), z.lte(100_000_000)),
        "Amount in the practice's currency, minor units (1-100000000).",
        45000,
      ),
      method: PaymentMethod,
      note: doc(z.nullish(Text(1000)), 'A note (at most 1000 characters).', 'Paid at checkout'),
      kind: z._default(PaymentKind, 'payment'),
      reference: doc(
        z.nullish(Text(200).check(z.minLength(1))),
        "The processor's id of the charge (1-200 characters), e.g. a Stripe PaymentIntent id; never card data.",
        'pi_3QZx8B2eZvKYlo2C1a2b3c4d',
      ),
    }),
    'A payment received from a client.',
  ),
);
/** `kind` may be left out by callers below HTTP (the body's default). */
export type CreatePaymentInput = Omit<z.output<typeof CreatePaymentBody>, 'kind'> & {
  kind?: z.output<typeof CreatePaymentBody>['kind'];
};

export const Payment = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('payment', 'The payment id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      client_id: OutId('client', 'The paying client.'),
      appointment_id: z.nullable(OutId('appointment', 'The appointment paid for, if any.')),
      amount_cents: doc(z.number().check(z.int()), 'Amount, minor units.', 45000),
      currency: doc(z.string(), "The practice's currency when the payment was recorded (ISO 4217).", 'USD'),
      method: PaymentMethod,
      note: doc(z.nullable(z.string()), 'A note.', 'Paid at checkout'),
      kind: PaymentKind,
      reference: Reference,
      version: doc(z.number().check(z.int()), 'Always 1: payments are immutable.', 1),
      created_at: Instant('When it was recorded.'),
    }),
    { description: 'A payment (immutable once recorded).', id: 'Payment' },
  ),
);
export type Payment = z.output<typeof Payment>;

export const ListPaymentsQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    from: doc(
      z.optional(LocalDate),
      'Practice-local date, inclusive. With only one of from/to the range is 31 days; with neither, the 31 days ending today.',
      '2026-11-01',
    ),
    to: doc(z.optional(LocalDate), 'Practice-local date, inclusive.', '2026-11-30'),
    client_id: z.optional(IdOf('client', "Only this client's payments; without dates, all of them.")),
  }),
);
export type ListPaymentsQuery = z.output<typeof ListPaymentsQuery>;
