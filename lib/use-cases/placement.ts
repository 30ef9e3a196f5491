import {
  checkProviderAvailability,
  PAST_START_GRACE_MINUTES,
  startsInThePast,
  unavailableProblems,
  type Busy,
  type Conflict,
  type UnavailableCode,
  type UnavailableProblem,
} from '../domain/availability';
import type { ClaimedResource } from '../db/appointments';
import { AppError, type FieldProblem } from '../errors';
import type { BookingReads, ServiceRecord } from '../db/booking-reads';

/**
 * Whether an appointment may take a place on the calendar (API reference, appointments: booking
 * rules), decided on one booking read: the checks every create and move runs, in the contract's order.
 */

export interface Placement {
  provider_id: string;
  room_id: string | null;
  equipment_id: string | null;
  scheduled_at: string;
  end_at: string;
  /** The booking's buffers: its held time must be free (lib/domain/held-time.ts). */
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

const UNAVAILABLE_SUBJECT: Record<UnavailableCode, { noun: string; path: string }> = {
  PROVIDER_UNAVAILABLE: { noun: 'provider', path: 'provider_id' },
  ROOM_UNAVAILABLE: { noun: 'room', path: 'room_id' },
  EQUIPMENT_UNAVAILABLE: { noun: 'equipment', path: 'equipment_id' },
};

/** One reason as a field problem: inactivity is about the resource's id, the others about the time. */
function unavailableDetail(code: UnavailableCode, problem: UnavailableProblem): FieldProblem {
  const { noun, path } = UNAVAILABLE_SUBJECT[code];
  switch (problem.reason) {
    case 'inactive':
      return { path, message: `the ${noun} is inactive`, reason: 'inactive' };
    case 'outside_working_hours':
      return {
        path: 'scheduled_at',
        message: `outside the ${noun}'s working hours that day`,
        reason: 'outside_working_hours',
      };
    case 'time_off':
      return {
        path: 'scheduled_at',
        message: `the ${noun} is on time off from ${problem.start} to ${problem.end}`,
        reason: 'time_off',
      };
    case 'overlap':
      // A hold's claim is named as the hold (API reference, holds).
      return problem.hold
        ? {
            path: 'scheduled_at',
            message: `the ${noun} is held from ${problem.start} to ${problem.end} by hold ${problem.appointment_id}`,
            reason: 'overlap',
            hold_id: problem.appointment_id,
          }
        : {
            path: 'scheduled_at',
            message: `the ${noun} is booked from ${problem.start} to ${problem.end} by appointment ${problem.appointment_id}`,
            reason: 'overlap',
            appointment_id: problem.appointment_id,
          };
  }
}

/** `*_UNAVAILABLE` with every reason as `details` (API reference, errors), or null when the resource is free. */
function unavailable(code: UnavailableCode, conflicts: readonly Conflict[], active: boolean): AppError | null {
  const details = unavailableProblems(code, conflicts, active).map((problem) => unavailableDetail(code, problem));
  if (details.length === 0) return null;
  const { noun } = UNAVAILABLE_SUBJECT[code];
  return new AppError(
    code,
    `The ${noun} is not available at this time: ${details.map((detail) => detail.message).join('; ')}`,
    { details },
  );
}

/**
 * The contract's validation order from the provider on: PROVIDER_NOT_FOUND,
 * PROVIDER_NOT_CERTIFIED, PROVIDER_UNAVAILABLE, ROOM_NOT_FOUND / ROOM_UNAVAILABLE,
 * EQUIPMENT_NOT_FOUND / EQUIPMENT_UNAVAILABLE.
 */
export function assertPlaceable(
  reads: BookingReads,
  service: ServiceRecord,
  placement: Placement,
  movingId?: string,
  /** The caller's checks that come right after PROVIDER_NOT_CERTIFIED (a client plan's, section 12). */
  afterCertified?: () => void,
): void {
  const provider = reads.entity('PROVIDER', placement.provider_id);
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
  if (!(service.provider_ids ?? []).includes(provider.id)) throw new AppError('PROVIDER_NOT_CERTIFIED');
  afterCertified?.();
  const busy = (resource: ClaimedResource, id: string | null): Busy[] => (id ? reads.busy(resource, id) : []);
  const { conflicts } = checkProviderAvailability({
    start: placement.scheduled_at,
    end: placement.end_at,
    zone: reads.practice!.time_zone,
    workingHours: provider.working_hours ?? {},
    timeOff: provider.time_off ?? [],
    providerBusy: busy('PROVIDER', provider.id),
    roomBusy: busy('ROOM', placement.room_id),
    equipmentBusy: busy('EQUIPMENT', placement.equipment_id),
    buffers: placement,
    ignoreAppointmentId: movingId,
  });
  const providerError = unavailable('PROVIDER_UNAVAILABLE', conflicts, provider.active !== false);
  if (providerError) throw providerError;
  for (const [type, id, notFound, code] of [
    ['ROOM', placement.room_id, 'ROOM_NOT_FOUND', 'ROOM_UNAVAILABLE'],
    ['EQUIPMENT', placement.equipment_id, 'EQUIPMENT_NOT_FOUND', 'EQUIPMENT_UNAVAILABLE'],
  ] as const) {
    if (!id) continue;
    const resource = reads.entity(type, id);
    if (!resource) throw new AppError(notFound);
    const error = unavailable(code, conflicts, resource.active !== false);
    if (error) throw error;
  }
}

/**
 * The first of `providerIds` (in their order) that may take the placement; when none may, the
 * first one's refusal, so a single candidate answers exactly as assertPlaceable does.
 */
export function firstPlaceable(
  reads: BookingReads,
  service: ServiceRecord,
  providerIds: readonly string[],
  placement: Omit<Placement, 'provider_id'>,
  movingId?: string,
  afterCertified?: () => void,
): Placement {
  let refusal: unknown;
  for (const providerId of providerIds) {
    try {
      const candidate = { ...placement, provider_id: providerId };
      assertPlaceable(reads, service, candidate, movingId, afterCertified);
      return candidate;
    } catch (error) {
      refusal ??= error;
    }
  }
  throw refusal ?? new AppError('PROVIDER_NOT_FOUND');
}

/** 400 for a create or move starting more than the grace period before the request's `now` (API reference, appointments). */
export function assertNotPast(scheduledAt: string, now: Date): void {
  if (!startsInThePast(scheduledAt, now)) return;
  throw new AppError('VALIDATION_ERROR', `scheduled_at is in the past (${scheduledAt})`, {
    details: [
      { path: 'scheduled_at', message: `must not be more than ${PAST_START_GRACE_MINUTES} minutes in the past` },
    ],
  });
}
