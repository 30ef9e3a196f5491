import { balanceStepAction, clientPlanActiveCheck, findBalance, findClientPlan, ledgerPutAction } from '../db/plans';
import type { TransactItem } from '../db/transact';
import { DataFailure } from '../db/failure';
import { randomUUID } from 'node:crypto';
import { applyStep, balanceStep, bookingProblem, unitSteps, type LedgerKind } from '../domain/plans';
import type { PlanBalanceRecord, PlanLedgerRecord } from '../domain/records';
import { AppError } from '../errors';

/**
 * Booking against a client plan (API reference, section 12): the plan and its balances read with
 * each try, checked in create's order, and the reservation (the balance's step on the version
 * read, its ledger entry, the plan still active) committed in the booking's own transaction. Of N
 * simultaneous bookings against k units exactly k commit: the others' balance condition fails,
 * and their next try reads what is left (ENTITLEMENT_EXHAUSTED at 0).
 */

/** A ledger entry as stored, with the balance right after it. */
const entryRecord = (
  balance: PlanBalanceRecord,
  kind: LedgerKind,
  quantity: number,
  after: { reserved: number; used: number; remaining: number },
  at: string,
  extra: { appointment_id?: string; reason?: string },
  id: string = randomUUID(),
): PlanLedgerRecord => ({
  id,
  medspa_id: balance.medspa_id,
  client_plan_id: balance.client_plan_id,
  service_id: balance.service_id,
  kind,
  quantity,
  appointment_id: extra.appointment_id ?? null,
  reason: extra.reason ?? null,
  balance_after: { reserved: after.reserved, used: after.used, remaining: after.remaining },
  created_at: at,
});

/** A ledger entry moving this balance, with the balance right after it; null when a counter would go below zero. */
export const ledgerEntry = (
  balance: PlanBalanceRecord,
  kind: LedgerKind,
  quantity: number,
  at: string,
  extra: { appointment_id?: string; reason?: string } = {},
): PlanLedgerRecord | null => {
  const after = applyStep(balance, balanceStep(kind, quantity));
  return after && entryRecord(balance, kind, quantity, after, at, extra);
};

/**
 * One `reserve` entry of one unit per appointment, all in one write, each with the balance right
 * after it in appointment order (null when too few units remain). They share `created_at`, so their
 * ids are drawn in ascending order: the ledger, newest first by `created_at#id`, lists them in
 * the reverse of the order they apply, like entries written one after another.
 */
export function reserveEntries(balance: PlanBalanceRecord, appointmentIds: readonly string[], at: string) {
  const after = unitSteps(balance, 'reserve', appointmentIds.length);
  if (!after) return null;
  const ids = appointmentIds.map(() => randomUUID()).sort();
  return after.map((step, i) =>
    entryRecord(balance, 'reserve', 1, step, at, { appointment_id: appointmentIds[i]! }, ids[i]),
  );
}

export async function readPlanUse(medspaId: string, clientPlanId: string, now: Date) {
  const found = await findClientPlan(medspaId, clientPlanId);
  const balanceFor = (serviceId: string) => found?.balances.find((b) => b.service_id === serviceId);
  return {
    /**
     * CLIENT_PLAN_NOT_FOUND, PLAN_NOT_APPLICABLE, PLAN_NOT_ACTIVE, ENTITLEMENT_EXHAUSTED, in that
     * order; `units`: how many the booking needs (a series, one per occurrence).
     */
    check(booking: { client_id: string; service_id: string }, units = 1): void {
      if (!found) throw new AppError('CLIENT_PLAN_NOT_FOUND');
      const problem = bookingProblem(found.plan, booking);
      if (problem) throw new AppError(problem);
      const remaining = balanceFor(booking.service_id)?.remaining ?? 0;
      if (remaining < units)
        throw new AppError(
          'ENTITLEMENT_EXHAUSTED',
          units === 1
            ? 'No units of this service remain on the plan'
            : `The series needs ${units} units of this service, one per occurrence; ${remaining} remain on the plan`,
        );
    },
    /**
     * The reservation's writes for the appointments' own transaction (after `check`): the plan
     * still active, ONE balance step of one unit per appointment on the version read, and a ledger
     * entry per appointment. All the appointments are of one service.
     */
    reserve(...appointments: { id: string; service_id: string }[]): TransactItem[] {
      const balance = balanceFor(appointments[0]!.service_id)!;
      const entries = reserveEntries(
        balance,
        appointments.map((a) => a.id),
        now.toISOString(),
      )!;
      return [
        clientPlanActiveCheck(found!.plan),
        balanceStepAction(balance, { kind: 'reserve', quantity: entries.length }),
        ...entries.map(ledgerPutAction),
      ];
    },
  };
}

/**
 * The writes that settle a plan-booked appointment's reservation (a use or a release), for the
 * status change's own transaction: the balance's step on the version read and its ledger entry.
 * A balance that moved meanwhile fails the transaction, and the change is decided again.
 */
export async function settlementWrites(
  medspaId: string,
  appointment: { id: string; service_id: string; client_plan_id?: string | null },
  kind: 'use' | 'release',
  at: string,
): Promise<TransactItem[]> {
  if (!appointment.client_plan_id) return [];
  const balance = await findBalance(medspaId, appointment.client_plan_id, appointment.service_id);
  // A plan-booked appointment reserved a unit of this very balance in its own write.
  if (!balance)
    throw new DataFailure(
      'corrupt',
      `appointment ${appointment.id}: client plan ${appointment.client_plan_id} has no balance of its service`,
    );
  const entry = ledgerEntry(balance, kind, 1, at, { appointment_id: appointment.id });
  // Nothing reserved to settle (an adjustment cannot take reserved units): nothing to write.
  return entry ? [balanceStepAction(balance, entry), ledgerPutAction(entry)] : [];
}
