import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { checkProviderAvailability, PAST_START_GRACE_MINUTES, startsInThePast, unavailableProblems, type Busy, type Conflict, type UnavailableCode, type UnavailableProblem } from '../domain/availability';
import { bucketIdsFor, MAX_CLAIM_MINUTES } from '../domain/claims';
import { isMovable } from '../domain/status';
import { addMinutes } from '../domain/time';
import { commitAppointment, getAppointment, type AppointmentWrite, type ClaimChange, type CommitResult } from '../db/appointments';
import type { ClaimedResource } from '../db/keys';
import { clientIsLive } from '../db/client-stats';
import { changesNothing } from '../db/update';
import { AppError, type ErrorCode, type FieldProblem } from '../errors';
import type { Appointment, CreateAppointmentInput, UpdateAppointmentInput } from '../schemas/appointments';
import { retry } from '../retry';
import { readForBooking, type BookingReads, type ClaimRange, type ProviderRecord, type ServiceRecord } from './booking-reads';

/** Lost races on a bucket are retried (fresh read, fresh decision), bounded, with jitter. */
const MAX_ATTEMPTS = 12;

const UNAVAILABLE: Record<ClaimedResource, ErrorCode> = {
  PROVIDER: 'PROVIDER_UNAVAILABLE',
  ROOM: 'ROOM_UNAVAILABLE',
  EQUIPMENT: 'EQUIPMENT_UNAVAILABLE',
};

/** The claims an active appointment holds: its provider, and its room and equipment when set. */
export function claimsOf(appointment: Pick<Appointment, 'provider_id' | 'room_id' | 'equipment_id' | 'scheduled_at' | 'end_at'>): ClaimRange[] {
  const interval = { start: appointment.scheduled_at, end: appointment.end_at };
  const claims: ClaimRange[] = [{ resource: 'PROVIDER', resourceId: appointment.provider_id, ...interval }];
  if (appointment.room_id) claims.push({ resource: 'ROOM', resourceId: appointment.room_id, ...interval });
  if (appointment.equipment_id) claims.push({ resource: 'EQUIPMENT', resourceId: appointment.equipment_id, ...interval });
  return claims;
}

const bucketKeyOf = (resource: ClaimedResource, resourceId: string, hour: string) => `${resource}#${resourceId}#${hour}`;

/**
 * The bucket writes that move an appointment from `before` claims to `after` claims: every bucket
 * of `after` gets the entry (conditioned on the version read), every bucket only in `before` loses it.
 */
export function planClaimChanges(appointmentId: string, before: ClaimRange[], after: ClaimRange[], reads?: BookingReads): ClaimChange[] {
  const changes = new Map<string, ClaimChange>();
  for (const claim of after) {
    for (const hour of bucketIdsFor(claim.start, claim.end)) {
      const read = reads?.buckets(claim.resource, claim.resourceId).find((bucket) => bucket.hour === hour);
      if (!read) throw new Error(`bucket ${claim.resource} ${hour} was not read before booking`);
      changes.set(bucketKeyOf(claim.resource, claim.resourceId, hour), {
        kind: 'add',
        bucket: read,
        appointmentId,
        start: claim.start,
        end: claim.end,
      });
    }
  }
  for (const claim of before) {
    for (const hour of bucketIdsFor(claim.start, claim.end)) {
      const key = bucketKeyOf(claim.resource, claim.resourceId, hour);
      if (!changes.has(key)) changes.set(key, { kind: 'remove', bucket: { resource: claim.resource, resourceId: claim.resourceId, hour }, appointmentId });
    }
  }
  return [...changes.values()];
}

interface Placement {
  provider_id: string;
  room_id: string | null;
  equipment_id: string | null;
  scheduled_at: string;
  end_at: string;
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
      return { path: 'scheduled_at', message: `outside the ${noun}'s working hours that day`, reason: 'outside_working_hours' };
    case 'time_off':
      return { path: 'scheduled_at', message: `the ${noun} is on time off from ${problem.start} to ${problem.end}`, reason: 'time_off' };
    case 'overlap':
      return {
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
  return new AppError(code, `The ${noun} is not available at this time: ${details.map((detail) => detail.message).join('; ')}`, { details });
}

/**
 * The contract's validation order from the provider on: PROVIDER_NOT_FOUND,
 * PROVIDER_NOT_CERTIFIED, PROVIDER_UNAVAILABLE, ROOM_NOT_FOUND / ROOM_UNAVAILABLE,
 * EQUIPMENT_NOT_FOUND / EQUIPMENT_UNAVAILABLE.
 */
function assertPlaceable(reads: BookingReads, service: ServiceRecord, placement: Placement, movingId?: string): void {
  const provider = reads.entity<ProviderRecord>('PROVIDER', placement.provider_id);
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
  if (!(service.provider_ids ?? []).includes(provider.id)) throw new AppError('PROVIDER_NOT_CERTIFIED');
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
    ignoreAppointmentId: movingId,
  });
  const providerError = unavailable('PROVIDER_UNAVAILABLE', conflicts, provider.active !== false);
  if (providerError) throw providerError;
  for (const [type, id, notFound, code] of [
    ['ROOM', placement.room_id, 'ROOM_NOT_FOUND', 'ROOM_UNAVAILABLE'],
    ['EQUIPMENT', placement.equipment_id, 'EQUIPMENT_NOT_FOUND', 'EQUIPMENT_UNAVAILABLE'],
  ] as const) {
    if (!id) continue;
    const resource = reads.entity<{ active?: boolean }>(type, id);
    if (!resource) throw new AppError(notFound);
    const error = unavailable(code, conflicts, resource.active !== false);
    if (error) throw error;
  }
}

/** 400 for a create or move starting more than the grace period before the request's `now` (API reference, appointments). */
function assertNotPast(scheduledAt: string, now: Date): void {
  if (!startsInThePast(scheduledAt, now)) return;
  throw new AppError('VALIDATION_ERROR', `scheduled_at is in the past (${scheduledAt})`, {
    details: [{ path: 'scheduled_at', message: `must not be more than ${PAST_START_GRACE_MINUTES} minutes in the past` }],
  });
}

/** Reads for deciding a placement: the practice, the referenced items and the buckets the interval can touch. */
function readPlacement(medspaId: string, placement: Omit<Placement, 'end_at'>, longest: number, extra: { type: 'CLIENT' | 'SERVICE'; id: string }[]) {
  const range = { start: placement.scheduled_at, end: addMinutes(placement.scheduled_at, longest) };
  return readForBooking(
    medspaId,
    [...extra, { type: 'PROVIDER', id: placement.provider_id }, { type: 'ROOM', id: placement.room_id }, { type: 'EQUIPMENT', id: placement.equipment_id }],
    claimsOf({ ...placement, end_at: range.end }).map((claim) => ({ ...claim, ...range })),
  );
}

/** Runs attempts until one commits; a lost bucket race is retried, a real overlap is answered at once. */
async function withRetries(attempt: () => Promise<{ result: CommitResult; done: () => Appointment }>): Promise<Appointment> {
  let lastResource: ClaimedResource = 'PROVIDER';
  return retry<Appointment>(
    async () => {
      const { result, done } = await attempt();
      if (result.ok) return { done: done() };
      if (result.failed === 'claim') lastResource = result.resource;
      return { retry: 'later' };
    },
    {
      attempts: MAX_ATTEMPTS,
      exhausted: () => {
        throw new AppError(UNAVAILABLE[lastResource], 'The time is in high demand; try again');
      },
    },
  );
}

export async function createAppointment(medspaId: string, input: CreateAppointmentInput, now: Date, writes?: RequestWrites): Promise<Appointment> {
  const id = randomUUID();
  const scheduledAt = new Date(input.scheduled_at).toISOString();
  assertNotPast(scheduledAt, now);
  const placementInput = { provider_id: input.provider_id, room_id: input.room_id ?? null, equipment_id: input.equipment_id ?? null, scheduled_at: scheduledAt };
  return withRetries(async () => {
    const reads = await readPlacement(medspaId, placementInput, input.duration_minutes ?? MAX_CLAIM_MINUTES, [
      { type: 'CLIENT', id: input.client_id },
      { type: 'SERVICE', id: input.service_id },
    ]);
    if (!reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
    const service = reads.entity<ServiceRecord>('SERVICE', input.service_id);
    if (!service) throw new AppError('SERVICE_NOT_FOUND');
    if (service.active === false) {
      throw new AppError('VALIDATION_ERROR', 'The service is not active', { details: [{ path: 'service_id', message: 'service is not active' }] });
    }
    const duration = input.duration_minutes ?? service.duration_minutes;
    const placement = { ...placementInput, end_at: addMinutes(scheduledAt, duration) };
    assertPlaceable(reads, service, placement);
    const at = now.toISOString();
    const appointment: Appointment = {
      id,
      medspa_id: medspaId,
      client_id: input.client_id,
      service_id: input.service_id,
      ...placement,
      duration_minutes: duration,
      status: 'scheduled',
      notes: input.notes ?? null,
      internal_notes: input.internal_notes ?? null,
      source: input.source,
      price_cents: input.price_cents ?? service.price_cents,
      cancelled_at: null,
      cancellation_reason: null,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    // The client check closes the race with a client deletion committed after our read.
    const result = await commitAppointment({ kind: 'create', appointment }, planClaimChanges(id, [], claimsOf(appointment), reads), medspaId, [
      clientIsLive(medspaId, input.client_id),
    ], writes);
    if (!result.ok && result.failed === 'alongside') throw new AppError('CLIENT_NOT_FOUND');
    return { result, done: () => appointment };
  });
}

const MOVE_FIELDS = ['scheduled_at', 'duration_minutes', 'provider_id', 'room_id', 'equipment_id'] as const;

export async function updateAppointment(
  medspaId: string,
  id: string,
  input: UpdateAppointmentInput,
  options: { ifMatch?: number; now: Date; writes?: RequestWrites },
): Promise<Appointment> {
  return withRetries(async () => {
    const current = await getAppointment(medspaId, id);
    if (!current) throw new AppError('APPOINTMENT_NOT_FOUND');
    if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
    const scheduledAt = input.scheduled_at ? new Date(input.scheduled_at).toISOString() : current.scheduled_at;
    const next = {
      provider_id: input.provider_id ?? current.provider_id,
      room_id: input.room_id === undefined ? current.room_id : input.room_id,
      equipment_id: input.equipment_id === undefined ? current.equipment_id : input.equipment_id,
      scheduled_at: scheduledAt,
      duration_minutes: input.duration_minutes ?? current.duration_minutes,
    };
    const moves = MOVE_FIELDS.some((field) => next[field] !== current[field]);
    const changes: Record<string, unknown> = {};
    for (const field of ['notes', 'internal_notes', 'price_cents'] as const) if (input[field] !== undefined) changes[field] = input[field];
    let claimChanges: ClaimChange[] = [];
    let updated: Appointment = { ...current, ...changes } as Appointment;
    if (moves) {
      if (!isMovable(current.status)) {
        throw new AppError('INVALID_STATUS_TRANSITION', `A ${current.status} appointment cannot be moved; only scheduled and confirmed ones can`);
      }
      assertNotPast(scheduledAt, options.now);
      const endAt = addMinutes(scheduledAt, next.duration_minutes);
      const placement = { ...next, end_at: endAt };
      const reads = await readPlacement(medspaId, next, next.duration_minutes, [{ type: 'SERVICE', id: current.service_id }]);
      const service = reads.entity<ServiceRecord>('SERVICE', current.service_id);
      if (!service) throw new AppError('SERVICE_NOT_FOUND');
      assertPlaceable(reads, service, placement, id);
      Object.assign(changes, placement, { duration_minutes: next.duration_minutes });
      updated = { ...updated, ...placement, duration_minutes: next.duration_minutes };
      claimChanges = planClaimChanges(id, claimsOf(current), claimsOf(updated), reads);
    }
    // Values equal to the stored ones: no write, no new version.
    if (!moves && changesNothing(changes, current)) return { result: { ok: true }, done: () => current };
    const at = options.now.toISOString();
    const write: AppointmentWrite = { kind: 'update', medspaId, id, clientId: current.client_id, expectedVersion: current.version, changes, now: at };
    const result = await commitAppointment(write, claimChanges, medspaId, [], options.writes);
    if (!result.ok && result.failed === 'appointment' && options.ifMatch !== undefined) throw new AppError('VERSION_CONFLICT');
    return { result, done: () => ({ ...updated, version: current.version + 1, updated_at: at }) };
  });
}

