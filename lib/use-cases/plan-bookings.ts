import { balanceStepAction, clientPlanActiveCheck, findClientPlan, ledgerPutAction } from '../db/plans';
import type { TransactItem } from '../db/transact';
import { bookingProblem } from '../domain/plans';
import { AppError } from '../errors';
import { ledgerEntry } from './client-plans';

/**
 * Booking against a client plan (API reference, section 12): the plan and its balances read with
 * each try, checked in create's order, and the reservation (the balance's step on the version
 * read, its ledger entry, the plan still active) committed in the booking's own transaction. Of N
 * simultaneous bookings against k units exactly k commit: the others' balance condition fails,
 * and their next try reads what is left (ENTITLEMENT_EXHAUSTED at 0).
 */
export async function readPlanUse(medspaId: string, clientPlanId: string, now: Date) {
  const found = await findClientPlan(medspaId, clientPlanId);
  const balanceFor = (serviceId: string) => found?.balances.find((b) => b.service_id === serviceId);
  return {
    /** CLIENT_PLAN_NOT_FOUND, PLAN_NOT_APPLICABLE, PLAN_NOT_ACTIVE, ENTITLEMENT_EXHAUSTED, in that order. */
    check(booking: { client_id: string; service_id: string }): void {
      if (!found) throw new AppError('CLIENT_PLAN_NOT_FOUND');
      const problem = bookingProblem(found.plan, booking);
      if (problem) throw new AppError(problem);
      if ((balanceFor(booking.service_id)?.remaining ?? 0) < 1)
        throw new AppError('ENTITLEMENT_EXHAUSTED', 'No units of this service remain on the plan');
    },
    /** The reservation's writes, for the appointment's transaction (after `check`). */
    reserve(appointment: { id: string; service_id: string }): TransactItem[] {
      const balance = balanceFor(appointment.service_id)!;
      const entry = ledgerEntry(balance, 'reserve', 1, now.toISOString(), { appointment_id: appointment.id })!;
      return [clientPlanActiveCheck(found!.plan), balanceStepAction(balance, entry), ledgerPutAction(entry)];
    },
  };
}
