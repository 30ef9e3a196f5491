import type { PageRequest } from '../crypto/cursor';
import type { Fee } from '../domain/deposits';
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
import { versionedUpdate } from './update';

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

/** The payment and its client's total spend (the client must be live): what every payment writes. */
export function paymentItems(payment: PaymentRecord): TransactItem[] {
  return [
    liveClientOnly(clientStatsAction(payment.medspa_id, payment.client_id, { spentCents: payment.amount_cents })),
    {
      Put: {
        TableName: tableName(),
        Item: paymentCodec.toItem(payment),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/**
 * The request's transaction items with a payment joined in (a confirm's deposit): one transaction
 * may not act on an item twice, so the payment's raise of its client's spend takes the place of a
 * check that the client is live (its own condition requires that), or goes into a new client's Put.
 */
export function withPaymentItems(items: TransactItem[], payment: PaymentRecord): TransactItem[] {
  const [spend, put] = paymentItems(payment);
  const clientKey = spend.Update!.Key!;
  const sameItem = (key: Record<string, unknown> | undefined) => key?.pk === clientKey.pk && key?.sk === clientKey.sk;
  const merged = items.flatMap((item): TransactItem[] => {
    if (item.ConditionCheck && sameItem(item.ConditionCheck.Key)) return [];
    if (item.Put?.Item && sameItem(item.Put.Item)) {
      const spent = Number(item.Put.Item.total_spent_cents ?? 0) + payment.amount_cents;
      return [{ Put: { ...item.Put, Item: { ...item.Put.Item, total_spent_cents: spent } } }];
    }
    return [item];
  });
  const newClient = items.some((item) => item.Put && sameItem(item.Put.Item));
  return [...merged, ...(newClient ? [] : [spend]), put];
}

/** The appointment paid for exists and is the paying client's. */
const appointmentOfClient = 'attribute_exists(pk) AND client_id = :client';

/** A plain payment only checks its appointment. */
const appointmentCheck = (medspaId: string, appointmentId: string, clientId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: appointmentKey(medspaId, appointmentId),
    ConditionExpression: appointmentOfClient,
    ExpressionAttributeValues: { ':client': clientId },
  },
});

/**
 * A deposit raises its appointment's `deposit_paid_cents` by an ADD: no read, so concurrent
 * deposits all count, exactly; the version moves so a racing cancel decides again on the new sum.
 */
export const depositOnAppointment = (
  medspaId: string,
  appointment: { id: string; client_id: string },
  amountCents: number,
  now: string,
): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: appointmentKey(medspaId, appointment.id),
    UpdateExpression: 'SET #updated_at = :now ADD #paid :amount, #version :one',
    ConditionExpression: appointmentOfClient,
    ExpressionAttributeNames: { '#paid': 'deposit_paid_cents', '#version': 'version', '#updated_at': 'updated_at' },
    ExpressionAttributeValues: { ':amount': amountCents, ':one': 1, ':now': now, ':client': appointment.client_id },
  },
});

/**
 * The appointment's fees as decided on the version read (a fee payment or a waiver), conditioned
 * on that version: of a fee payment and a waiver, or two fee payments, racing on one due fee,
 * exactly one commits and the other decides again on what it left.
 */
export function feesOnAppointment(
  medspaId: string,
  appointment: { id: string; client_id: string; version: number },
  fees: Fee[],
  now: string,
): TransactItem {
  const update = versionedUpdate(
    { fees },
    { expectedVersion: appointment.version, now, condition: 'client_id = :client' },
  );
  return {
    Update: {
      TableName: tableName(),
      Key: appointmentKey(medspaId, appointment.id),
      ...update,
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':client': appointment.client_id },
    },
  };
}

/**
 * The payment, the client's total spend and (when given) its appointment, in ONE transaction: a
 * payment never exists without its client's total including it, nor a deposit or fee payment
 * without its appointment moving with it. `appointment`: what the payment does to it (default:
 * a check that it exists and is the client's).
 */
export async function commitPayment(
  payment: PaymentRecord,
  writes?: RequestWrites,
  appointment?: TransactItem,
): Promise<PaymentWriteResult> {
  const [client, put] = paymentItems(payment);
  const actions: NamedAction<'client' | 'payment' | 'appointment'>[] = [
    { name: 'client', action: client },
    { name: 'payment', action: put },
  ];
  if (payment.appointment_id) {
    actions.push({
      name: 'appointment',
      action: appointment ?? appointmentCheck(payment.medspa_id, payment.appointment_id, payment.client_id),
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
