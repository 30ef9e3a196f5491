import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import {
  commitPayment,
  depositOnAppointment,
  feesOnAppointment,
  getPayment,
  listClientPayments,
  listPaymentsByTime,
  type PaymentWriteResult,
} from '../db/payments';
import { isEntityId } from '../db/resources';
import { getAppointment } from '../db/appointments';
import { dueCents, payFees } from '../domain/deposits';
import type { PaymentMethod, PaymentRecord } from '../domain/records';
import { AppError, fieldError } from '../errors';
import { retry } from '../retry';
import type { CreatePaymentInput, ListPaymentsQuery, Payment } from '../schemas/payments';
import { localDateRange } from './date-range';
import { failureOf, type FailureTable } from './failures';
import { readPractice } from './practice';
import { toListResult, type ListResult } from './list-result';

/**
 * Payments (API reference, other resources): recorded in one transaction with the client's total spend; listed by
 * practice-local date range (monthly index partitions) or by client. `payment.received` comes
 * from the table stream, not from here.
 */

const appointmentNotFound = () => new AppError('APPOINTMENT_NOT_FOUND', 'Appointment does not exist for this client');

const PAYMENT_FAILURES: FailureTable<Exclude<PaymentWriteResult, { ok: true }>> = {
  client: 'CLIENT_NOT_FOUND',
  appointment: () => appointmentNotFound(),
};

/** A payment record as recorded now, in the practice's currency. */
function newPayment(medspaId: string, input: CreatePaymentInput, currency: string, now: Date): PaymentRecord {
  return {
    id: randomUUID(),
    medspa_id: medspaId,
    client_id: input.client_id,
    appointment_id: input.appointment_id ?? null,
    amount_cents: input.amount_cents,
    currency,
    method: input.method,
    note: input.note ?? null,
    kind: input.kind ?? 'payment',
    reference: input.reference ?? null,
    version: 1,
    created_at: now.toISOString(),
  };
}

export async function createPayment(
  medspaId: string,
  input: CreatePaymentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Payment> {
  if (!isEntityId(input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
  if (input.appointment_id && !isEntityId(input.appointment_id)) throw new AppError('APPOINTMENT_NOT_FOUND');
  const kind = input.kind ?? 'payment';
  if ((kind === 'deposit' || kind === 'fee') && !input.appointment_id)
    throw fieldError('appointment_id', `a ${kind} payment names its appointment`);
  const practice = await readPractice(medspaId);
  const payment = newPayment(medspaId, input, practice.currency, now);
  if (kind === 'fee') return payFee(payment, writes);
  const appointment =
    kind === 'deposit'
      ? depositOnAppointment(
          medspaId,
          { id: payment.appointment_id!, client_id: payment.client_id },
          payment.amount_cents,
          payment.created_at,
        )
      : undefined;
  const result = await commitPayment(payment, writes, appointment);
  if (!result.ok) throw failureOf(PAYMENT_FAILURES, result);
  return payment;
}

/**
 * A fee payment lowers its appointment's due fee in the payment's own transaction, conditioned
 * on the appointment's version read: a lost race (another fee payment, a waiver) decides again on
 * what the winner left, so nothing is ever paid twice or above what is due.
 */
function payFee(payment: PaymentRecord, writes?: RequestWrites): Promise<Payment> {
  return retry<Payment>(
    async () => {
      const appointment = await getAppointment(payment.medspa_id, payment.appointment_id!);
      if (!appointment || appointment.client_id !== payment.client_id) throw appointmentNotFound();
      const fees = payFees(appointment.fees, payment.amount_cents);
      if (!fees) {
        const due = dueCents(appointment.fees);
        throw fieldError('amount_cents', due === 0 ? 'the appointment has no fee due' : `above the fee due (${due})`);
      }
      const result = await commitPayment(
        payment,
        writes,
        feesOnAppointment(payment.medspa_id, appointment, fees, payment.created_at),
      );
      if (result.ok) return { done: payment };
      if (result.failed === 'client') throw failureOf(PAYMENT_FAILURES, result);
      return { retry: 'now' };
    },
    {
      attempts: 8,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', 'The appointment is changing too fast; try again');
      },
    },
  );
}

/**
 * The deposit payment of an appointment a hold's confirm creates in the same transaction (its
 * items joined by withPaymentItems). The appointment's own Put carries `deposit_paid_cents` = the
 * amount instead of the ADD a later deposit makes (one transaction writes an item once).
 * `payment.received` comes from the stream as for any payment.
 */
export const depositPayment = (
  medspaId: string,
  appointment: { id: string; client_id: string },
  deposit: { amount_cents: number; method: PaymentMethod; reference?: string | null },
  options: { currency: string; now: Date },
): PaymentRecord =>
  newPayment(
    medspaId,
    { ...deposit, client_id: appointment.client_id, appointment_id: appointment.id, kind: 'deposit' },
    options.currency,
    options.now,
  );

/** A plan's payment (`kind: "plan"`), recorded in its sale's own write (lib/use-cases/client-plans.ts). */
export const planPayment = (
  medspaId: string,
  clientId: string,
  payment: { amount_cents: number; method: PaymentMethod; reference?: string | null },
  options: { currency: string; now: Date },
): PaymentRecord =>
  newPayment(medspaId, { ...payment, client_id: clientId, kind: 'plan' }, options.currency, options.now);

export async function readPayment(medspaId: string, id: string): Promise<Payment> {
  const payment = await getPayment(medspaId, id);
  if (!payment) throw new AppError('PAYMENT_NOT_FOUND');
  return payment;
}

/**
 * Payments created on practice-local dates [from, to] (inclusive), newest first. Without dates:
 * the 31 days up to today (practice-local); with `client_id` and no dates: all of that client's payments.
 */
export async function listPayments(
  medspaId: string,
  query: ListPaymentsQuery,
  now: Date,
): Promise<ListResult<Payment>> {
  const page = pageRequest(medspaId, 'payments', query);
  const dated = query.from !== undefined || query.to !== undefined;
  if (query.client_id && !dated) return toListResult(await listClientPayments(medspaId, query.client_id, null, page));

  const zone = (await readPractice(medspaId)).time_zone;
  const range = localDateRange({ from: query.from, to: query.to }, zone, now, 'backward');
  const result = query.client_id
    ? await listClientPayments(medspaId, query.client_id, range, page)
    : await listPaymentsByTime(medspaId, range, page);
  return toListResult(result);
}
