import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { bucketIdsFor, MAX_CLAIM_MINUTES } from '../domain/claims';
import { isMovable } from '../domain/status';
import { addMinutes } from '../domain/time';
import { commitAppointment, getAppointment, type AppointmentWrite, type ClaimChange, type CommitResult, type TransactItem } from '../db/appointments';
import type { ClaimedResource } from '../db/keys';
import { clientIsLive } from '../db/client-stats';
import { changesNothing } from '../db/update';
import { AppError, type ErrorCode } from '../errors';
import type { Appointment, CreateAppointmentInput, UpdateAppointmentInput } from '../schemas/appointments';
import { retry } from '../retry';
import { readForBooking, type BookingReads, type ClaimRange, type ServiceRecord } from './booking-reads';
import { assertNotPast, assertPlaceable, firstPlaceable } from './placement';

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

/**
 * Reads for deciding a placement: the practice, the referenced items and the buckets the interval
 * can touch, for every candidate provider.
 */
function readPlacement(
  medspaId: string,
  placement: { providerIds: readonly string[]; room_id: string | null; equipment_id: string | null; scheduled_at: string },
  longest: number,
  extra: { type: 'CLIENT' | 'SERVICE'; id: string }[],
) {
  const range = { start: placement.scheduled_at, end: addMinutes(placement.scheduled_at, longest) };
  const claims = placement.providerIds.flatMap((providerId, index) =>
    claimsOf({ ...placement, provider_id: providerId, ...(index > 0 ? { room_id: null, equipment_id: null } : {}), end_at: range.end }),
  );
  return readForBooking(
    medspaId,
    [
      ...extra,
      ...placement.providerIds.map((id) => ({ type: 'PROVIDER' as const, id })),
      { type: 'ROOM', id: placement.room_id },
      { type: 'EQUIPMENT', id: placement.equipment_id },
    ],
    claims.map((claim) => ({ ...claim, ...range })),
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

/**
 * A booking to place: a staff create names one provider; an online booking may offer several
 * candidates (the first free one takes it) and may create its client in the same transaction.
 */
export interface Booking extends Omit<CreateAppointmentInput, 'provider_id' | 'scheduled_at'> {
  scheduledAt: string;
  providerIds: readonly string[];
  /** The client's item and search index, written with the appointment; else the client must be live. */
  newClient?: TransactItem[];
  /** The caller's own rule on the fresh reads, before placing (online booking: the booking window). */
  check?: (reads: BookingReads, service: ServiceRecord) => void;
}

export const createAppointment = (medspaId: string, input: CreateAppointmentInput, now: Date, writes?: RequestWrites): Promise<Appointment> =>
  placeAppointment(medspaId, { ...input, scheduledAt: input.scheduled_at, providerIds: [input.provider_id] }, now, writes);

export async function placeAppointment(medspaId: string, input: Booking, now: Date, writes?: RequestWrites): Promise<Appointment> {
  const id = randomUUID();
  const scheduledAt = new Date(input.scheduledAt).toISOString();
  assertNotPast(scheduledAt, now);
  const placementInput = { room_id: input.room_id ?? null, equipment_id: input.equipment_id ?? null, scheduled_at: scheduledAt };
  return withRetries(async () => {
    const reads = await readPlacement(medspaId, { ...placementInput, providerIds: input.providerIds }, input.duration_minutes ?? MAX_CLAIM_MINUTES, [
      ...(input.newClient ? [] : [{ type: 'CLIENT' as const, id: input.client_id }]),
      { type: 'SERVICE', id: input.service_id },
    ]);
    if (!input.newClient && !reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
    const service = reads.entity<ServiceRecord>('SERVICE', input.service_id);
    if (!service) throw new AppError('SERVICE_NOT_FOUND');
    if (service.active === false) {
      throw new AppError('VALIDATION_ERROR', 'The service is not active', { details: [{ path: 'service_id', message: 'service is not active' }] });
    }
    input.check?.(reads, service);
    const duration = input.duration_minutes ?? service.duration_minutes;
    const placement = firstPlaceable(reads, service, input.providerIds, { ...placementInput, end_at: addMinutes(scheduledAt, duration) });
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
    // The client check closes the race with a client deletion committed after our read; a new
    // client's item is conditioned on its (fresh) id not existing.
    const result = await commitAppointment({ kind: 'create', appointment }, planClaimChanges(id, [], claimsOf(appointment), reads), medspaId,
      input.newClient ?? [clientIsLive(medspaId, input.client_id)], writes);
    if (!result.ok && result.failed === 'alongside') throw new AppError('CLIENT_NOT_FOUND');
    return { result, done: () => appointment };
  });
}

const MOVE_FIELDS = ['scheduled_at', 'duration_minutes', 'provider_id', 'room_id', 'equipment_id'] as const;

export async function updateAppointment(
  medspaId: string,
  id: string,
  input: UpdateAppointmentInput,
  /** `guard`: the caller's own rule on the appointment as read (online booking: the cutoff). */
  options: { ifMatch?: number; now: Date; writes?: RequestWrites; guard?: (current: Appointment) => void },
): Promise<Appointment> {
  return withRetries(async () => {
    const current = await getAppointment(medspaId, id);
    if (!current) throw new AppError('APPOINTMENT_NOT_FOUND');
    if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
    options.guard?.(current);
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
      const reads = await readPlacement(medspaId, { ...next, providerIds: [next.provider_id] }, next.duration_minutes, [{ type: 'SERVICE', id: current.service_id }]);
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

