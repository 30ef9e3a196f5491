import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import {
  commitPayment,
  getPayment,
  listClientPayments,
  listPaymentsByTime,
  type PaymentWriteResult,
} from '../db/payments';
import { isEntityId } from '../db/resources';
import { AppError } from '../errors';
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

const PAYMENT_FAILURES: FailureTable<Exclude<PaymentWriteResult, { ok: true }>> = {
  client: 'CLIENT_NOT_FOUND',
  appointment: () => new AppError('APPOINTMENT_NOT_FOUND', 'Appointment does not exist for this client'),
};

export async function createPayment(
  medspaId: string,
  input: CreatePaymentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Payment> {
  if (!isEntityId(input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
  if (input.appointment_id && !isEntityId(input.appointment_id)) throw new AppError('APPOINTMENT_NOT_FOUND');
  const practice = await readPractice(medspaId);
  const payment: Payment = {
    id: randomUUID(),
    medspa_id: medspaId,
    client_id: input.client_id,
    appointment_id: input.appointment_id ?? null,
    amount_cents: input.amount_cents,
    currency: practice.currency,
    method: input.method,
    note: input.note ?? null,
    version: 1,
    created_at: now.toISOString(),
  };
  const result = await commitPayment(payment, writes);
  if (!result.ok) throw failureOf(PAYMENT_FAILURES, result);
  return payment;
}

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
