import { afterUpdate } from '../db/update';
import type { RequestWrites } from '../db/request-writes';
import { newEventId } from '../events/ids';
import { assessFee, feeKindOf, waiveFee, type FeeKind } from '../domain/deposits';
import { settlementOf } from '../domain/plans';
import { clock } from '../clock';
import { canTransition, isActive, type AppointmentStatus } from '../domain/status';
import {
  commitAppointment,
  getAppointment,
  putReminderRequest,
  type AppointmentWrite,
  type TransactItem,
} from '../db/appointments';
import { clientStatsAction } from '../db/client-stats';
import { ledgerReleaseAction } from '../db/online-clients';
import { AppError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import { claimsOf, planClaimChanges } from './booking';
import { retry } from '../retry';
import { settlementWrites } from './plan-bookings';

const MAX_ATTEMPTS = 5;

/** An update of the appointment as read, on its version, and the appointment it leaves. */
const updateOf = (medspaId: string, current: Appointment, changes: Record<string, unknown>, at: string) => ({
  write: {
    kind: 'update' as const,
    medspaId,
    id: current.id,
    clientId: current.client_id,
    expectedVersion: current.version,
    changes,
    now: at,
  },
  result: (before: Appointment) => afterUpdate(before, changes, at),
});

/**
 * Reads the appointment, decides, and commits the change with the release of its claims when it
 * stops being active: two round trips. If someone changed it in between, decide again on the new
 * state (so two racing cancels give one success and one INVALID_STATUS_TRANSITION).
 */
async function changeAppointment(
  medspaId: string,
  id: string,
  /** `now`: the request's instant, which dates the plan ledger entry (a delete takes the clock's). */
  options: { now?: Date; ifMatch?: number; writes?: RequestWrites },
  decide: (current: Appointment) => {
    write: AppointmentWrite;
    releases: boolean;
    result: (current: Appointment) => Appointment;
    alongside?: TransactItem[];
    /** How a plan-booked appointment's reserved unit settles with this change (section 12). */
    settle?: 'use' | 'release';
  },
): Promise<Appointment> {
  return retry<Appointment>(
    async () => {
      const current = await getAppointment(medspaId, id);
      if (!current) throw new AppError('APPOINTMENT_NOT_FOUND');
      if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
      const { write, releases, result, alongside, settle } = decide(current);
      const at = (options.now ?? clock().now()).toISOString();
      const plan = settle ? await settlementWrites(medspaId, current, settle, at) : [];
      const claims = releases ? planClaimChanges(id, claimsOf(current), []) : [];
      // An online booking that stops holding time leaves its client's ledger (lib/db/online-clients.ts).
      const ledger =
        releases && current.source === 'online' ? [ledgerReleaseAction(medspaId, current.client_id, id)] : [];
      const outcome = await commitAppointment(
        write,
        claims,
        medspaId,
        [...(alongside ?? []), ...ledger, ...plan],
        options.writes,
      );
      // A lost race: the next try reads the new state at once.
      return outcome.ok ? { done: result(current) } : { retry: 'now' };
    },
    {
      attempts: MAX_ATTEMPTS,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', 'The appointment is changing too fast; read it again');
      },
    },
  );
}

/** A completion counts a visit (at its scheduled time) and a no-show a miss, on the client, in the same transaction. */
function clientStatsOf(medspaId: string, appointment: Appointment, to: AppointmentStatus): TransactItem[] {
  if (to === 'completed')
    return [clientStatsAction(medspaId, appointment.client_id, { visitAt: appointment.scheduled_at })];
  if (to === 'no_show') return [clientStatsAction(medspaId, appointment.client_id, { noShow: true })];
  return [];
}

export function changeStatus(
  medspaId: string,
  id: string,
  to: AppointmentStatus,
  /** `guard`: the caller's own rule on the appointment as read (online booking: the cutoff). */
  options: {
    now: Date;
    ifMatch?: number;
    reason?: string;
    /** A staff cancel's `waive_fee`: a fee it assesses is recorded as waived. */
    waiveFee?: boolean;
    /** false: no fee at all (a client's deletion cancels its appointments; nobody cancelled late). */
    assessFees?: boolean;
    writes?: RequestWrites;
    guard?: (current: Appointment) => void;
  },
): Promise<Appointment> {
  const at = options.now.toISOString();
  return changeAppointment(medspaId, id, options, (current) => {
    options.guard?.(current);
    if (!canTransition(current.status, to)) {
      throw new AppError('INVALID_STATUS_TRANSITION', `Cannot change status from ${current.status} to ${to}`);
    }
    const changes: Record<string, unknown> = { status: to };
    if (to === 'cancelled') Object.assign(changes, { cancelled_at: at, cancellation_reason: options.reason ?? null });
    // A late cancel or a no-show assesses its fee in this same write, on the deposit as read at this version;
    // a plan-booked appointment uses its plan's unit instead (section 12), unless the fee is waived.
    const fees = options.assessFees !== false;
    const fee =
      fees &&
      !current.client_plan_id &&
      assessFee(current, to, options.now, options.waiveFee ? { reason: options.reason ?? null } : undefined);
    if (fee) changes.fees = [...current.fees, fee];
    const releases = isActive(current.status) && !isActive(to);
    const late = fees && feeKindOf(current, to, options.now) === 'late_cancel';
    return {
      ...updateOf(medspaId, current, changes, at),
      releases,
      alongside: clientStatsOf(medspaId, current, to),
      settle:
        releases && current.client_plan_id ? settlementOf(to, late, !fees || options.waiveFee === true) : undefined,
    };
  });
}

export async function deleteAppointment(
  medspaId: string,
  id: string,
  options: { ifMatch?: number; writes?: RequestWrites },
) {
  await changeAppointment(medspaId, id, options, (current) => ({
    write: { kind: 'delete', medspaId, id, expectedVersion: current.version },
    releases: isActive(current.status),
    settle: isActive(current.status) && current.client_plan_id ? 'release' : undefined,
    result: (before) => before,
  }));
  return { id, deleted: true as const };
}

/** Records the request; delivery as `appointment.reminder` comes from the event pipeline. */
export async function requestReminder(
  medspaId: string,
  id: string,
  options: { now: Date; requestedBy: string; writes?: RequestWrites },
) {
  const appointment = await getAppointment(medspaId, id);
  if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
  if (!isActive(appointment.status)) {
    throw new AppError('INVALID_STATUS_TRANSITION', `No reminders for a ${appointment.status} appointment`);
  }
  // The id of the `appointment.reminder` event the stream delivers for this request (lib/events).
  const reminder = {
    event_id: newEventId(),
    appointment_id: id,
    requested_at: options.now.toISOString(),
    requested_by: options.requestedBy,
  };
  await putReminderRequest({ medspa_id: medspaId, ...reminder, appointment }, options.writes);
  return { event_id: reminder.event_id, appointment_id: id, requested_at: reminder.requested_at };
}

/**
 * POST /v1/appointments/{id}/fees/{kind}/waive: the due fee of `kind` waived, conditioned on the
 * version read (a fee payment racing it: one commits, the other decides again). A fee that is not
 * due (none assessed, paid or waived already) is 409 INVALID_STATUS_TRANSITION.
 */
export function waiveAppointmentFee(
  medspaId: string,
  id: string,
  kind: FeeKind,
  options: { now: Date; reason: string; writes?: RequestWrites },
): Promise<Appointment> {
  const at = options.now.toISOString();
  return changeAppointment(medspaId, id, options, (current) => {
    const fees = waiveFee(current.fees, kind, at, options.reason);
    if (!fees) {
      const fee = current.fees.find((f) => f.kind === kind);
      throw new AppError(
        'INVALID_STATUS_TRANSITION',
        fee ? `The ${kind} fee is ${fee.status}: only a due fee can be waived` : `No ${kind} fee was assessed`,
      );
    }
    return { ...updateOf(medspaId, current, { fees }, at), releases: false };
  });
}
