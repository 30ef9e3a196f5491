import type { PageRequest } from '../crypto/cursor';
import type { PaymentRecord } from '../domain/records';
import { clientStatsAction } from './client-stats';
import { tableName } from './client';
import { paymentCodec } from './codecs';
import { DataFailure } from './failure';
import { appointmentKey, clientPaymentsIndexPk, paymentTimeIndexPk } from './keys';
import { queryMonthPartitions } from './month-partitions';
import { queryPage, type Page } from './query';
import { getLiveEntity } from './resources';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';

/** Payments: one item per payment, on the practice's monthly time index (gsi1) and its client's (gsi2). */

/** Payments are never deleted: live means present (and a well-formed id). */
export const getPayment = (medspaId: string, id: string) => getLiveEntity(medspaId, 'PAYMENT', id);

export type PaymentWriteResult =
  | { ok: true }
  /** The client is absent or deleted. */
  | { ok: false; failed: 'client' }
  /** The appointment is absent or another client's. */
  | { ok: false; failed: 'appointment' };

/**
 * The statistics action keeps moving for a deleted (anonymised) client so history stays right,
 * but a new payment for one is refused: the same write also requires the client to be live.
 */
function liveClientOnly(action: TransactItem): TransactItem {
  const update = action.Update!;
  const condition = update.ConditionExpression ? `(${update.ConditionExpression}) AND ` : '';
  return {
    Update: { ...update, ConditionExpression: `${condition}attribute_exists(pk) AND attribute_not_exists(deleted_at)` },
  };
}

/**
 * The payment, the client's total spend and (when given) the appointment's existence, in ONE
 * transaction: a payment never exists without its client's total including it.
 */
export async function commitPayment(payment: PaymentRecord, writes?: RequestWrites): Promise<PaymentWriteResult> {
  const { medspa_id: medspaId } = payment;
  const actions: NamedAction<'client' | 'payment' | 'appointment'>[] = [
    {
      name: 'client',
      action: liveClientOnly(clientStatsAction(medspaId, payment.client_id, { spentCents: payment.amount_cents })),
    },
    {
      name: 'payment',
      action: {
        Put: {
          TableName: tableName(),
          Item: paymentCodec.toItem(payment),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ];
  if (payment.appointment_id) {
    actions.push({
      name: 'appointment',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: appointmentKey(medspaId, payment.appointment_id),
          ConditionExpression: 'attribute_exists(pk) AND client_id = :client',
          ExpressionAttributeValues: { ':client': payment.client_id },
        },
      },
    });
  }
  const outcome = await transact(actions, writes);
  if (outcome.ok) return outcome;
  // The API reference's order: the client's 404 before the appointment's.
  const failed = firstFailed(outcome.failed, ['client', 'appointment']);
  if (failed) return { ok: false, failed: failed.name };
  throw new DataFailure('collision', `payment ${payment.id} already exists`);
}

/** Payments created in [start, end), newest first: the practice's monthly partitions. */
export const listPaymentsByTime = (
  medspaId: string,
  range: { start: string; end: string },
  page: PageRequest,
): Promise<Page<PaymentRecord>> =>
  queryMonthPartitions(paymentCodec, {
    ...range,
    ...page,
    partitionOf: (month) => paymentTimeIndexPk(medspaId, month),
    descending: true,
  });

/** One client's payments created in [start, end) (or all when no range), newest first. */
export const listClientPayments = (
  medspaId: string,
  clientId: string,
  range: { start: string; end: string } | null,
  page: PageRequest,
): Promise<Page<PaymentRecord>> =>
  queryPage(paymentCodec, {
    index: 'gsi2',
    partition: clientPaymentsIndexPk(medspaId, clientId),
    sort: range
      ? { op: 'between', from: range.start, to: `${new Date(Date.parse(range.end) - 1).toISOString()}#\uffff` }
      : undefined,
    ...page,
    descending: true,
  });
