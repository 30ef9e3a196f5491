import type { RequestWrites } from '../db/request-writes';
import { randomUUID } from 'node:crypto';
import { bucketIdsFor, MAX_APPOINTMENT_MINUTES } from '../domain/claims';
import { buffersOf, heldInterval, MAX_BUFFER_MINUTES, type Buffers } from '../domain/held-time';
import { expiredEntryIds } from '../domain/holds';
import { clock } from '../clock';
import { isMovable } from '../domain/status';
import { addMinutes } from '../domain/time';
import {
  commitAppointment,
  getAppointment,
  type AppointmentWrite,
  type ClaimChange,
  type CommitResult,
  type TransactItem,
} from '../db/appointments';
import type { ClaimedResource } from '../db/appointments';
import { ledgerTrackAction } from '../db/online-clients';
import { clientIsLive } from '../db/client-stats';
import { changesNothing } from '../db/update';
import { bookingDepositCents, depositRequiredCents, NO_MONEY_TERMS, type CancellationPolicy } from '../domain/deposits';
import { AppError, type ErrorCode } from '../errors';
import type { Appointment, CreateAppointmentInput, UpdateAppointmentInput } from '../schemas/appointments';
import { retry } from '../retry';
import {
  readForBooking,
  type BookingReads,
  type ClaimRange,
  type OnlineReads,
  type ServiceRecord,
} from '../db/booking-reads';
import { assertNotPast, assertPlaceable, firstPlaceable, type Placement } from './placement';
import { readPlanUse } from './plan-bookings';

/** Lost races on a bucket are retried (fresh read, fresh decision), bounded, with jitter. */
const MAX_ATTEMPTS = 12;

const UNAVAILABLE: Record<ClaimedResource, ErrorCode> = {
  PROVIDER: 'PROVIDER_UNAVAILABLE',
  ROOM: 'ROOM_UNAVAILABLE',
  EQUIPMENT: 'EQUIPMENT_UNAVAILABLE',
};

/**
 * The claims an active appointment (or hold) holds: its provider, and its room and equipment when
 * set, each over its held time (lib/domain/held-time.ts; without buffer fields, the client's time).
 */
export function claimsOf(
  appointment: Pick<Appointment, 'provider_id' | 'room_id' | 'equipment_id' | 'scheduled_at' | 'end_at'> & Buffers,
): ClaimRange[] {
  const interval = heldInterval({ start: appointment.scheduled_at, end: appointment.end_at }, appointment);
  const claims: ClaimRange[] = [{ resource: 'PROVIDER', resourceId: appointment.provider_id, ...interval }];
  if (appointment.room_id) claims.push({ resource: 'ROOM', resourceId: appointment.room_id, ...interval });
  if (appointment.equipment_id)
    claims.push({ resource: 'EQUIPMENT', resourceId: appointment.equipment_id, ...interval });
  return claims;
}

const bucketKeyOf = (resource: ClaimedResource, resourceId: string, hour: string) =>
  `${resource}#${resourceId}#${hour}`;

/**
 * The bucket writes that move an appointment from `before` claims to `after` claims: every bucket
 * of `after` gets the entry (conditioned on the version read), every bucket only in `before` loses it.
 */
export function planClaimChanges(
  appointmentId: string,
  before: ClaimRange[],
  after: ClaimRange[],
  reads?: BookingReads,
  /**
   * `hold`: the entries are a hold's, until its expiry; `replaces`: the hold whose entries these
   * take over. Entries of holds expired by now (the clock, as the reads' busy time) are pruned from
   * every bucket written.
   */
  options: { hold?: { expires_at: string }; replaces?: string } = {},
): ClaimChange[] {
  const changes = new Map<string, ClaimChange>();
  const now = clock().now().getTime();
  for (const claim of after) {
    for (const hour of bucketIdsFor(claim.start, claim.end)) {
      const read = reads?.buckets(claim.resource, claim.resourceId).find((bucket) => bucket.hour === hour);
      if (!read) throw new Error(`bucket ${claim.resource} ${hour} was not read before booking`);
      const drop = [...expiredEntryIds(read.entries, now), ...(options.replaces ? [options.replaces] : [])];
      changes.set(bucketKeyOf(claim.resource, claim.resourceId, hour), {
        kind: 'add',
        bucket: read,
        appointmentId,
        start: claim.start,
        end: claim.end,
        ...(options.hold ? { hold: options.hold } : {}),
        ...(drop.length ? { drop } : {}),
      });
    }
  }
  for (const claim of before) {
    for (const hour of bucketIdsFor(claim.start, claim.end)) {
      const key = bucketKeyOf(claim.resource, claim.resourceId, hour);
      if (!changes.has(key))
        changes.set(key, {
          kind: 'remove',
          bucket: { resource: claim.resource, resourceId: claim.resourceId, hour },
          appointmentId,
        });
    }
  }
  return [...changes.values()];
}

const WIDEST_BUFFERS: Required<Buffers> = {
  buffer_before_minutes: MAX_BUFFER_MINUTES,
  buffer_after_minutes: MAX_BUFFER_MINUTES,
};

/** Whether buckets read for `read` buffers hold every claim a booking with `needed` ones can meet. */
const covers = (read: Buffers | undefined, needed: Required<Buffers>) =>
  buffersOf(read).buffer_before_minutes >= needed.buffer_before_minutes &&
  buffersOf(read).buffer_after_minutes >= needed.buffer_after_minutes;

/**
 * A create's reads, whose buckets must cover the held time of a service read in the same batch:
 * read for the expected buffers (`hint`, else none), and again for the service's when they turn
 * out wider (one more round trip, only for a buffered service the caller had not read); should the
 * service change between the two reads, the widest buffers cover any.
 */
export async function readCovering(
  read: (buffers: Buffers) => Promise<BookingReads>,
  serviceId: string,
  hint: Buffers | undefined,
): Promise<BookingReads> {
  const first = await read(buffersOf(hint));
  const needed = buffersOf(first.entity('SERVICE', serviceId));
  if (covers(hint, needed)) return first;
  const second = await read(needed);
  return covers(needed, buffersOf(second.entity('SERVICE', serviceId))) ? second : read(WIDEST_BUFFERS);
}

/**
 * Reads for deciding a placement: the practice, the referenced items and the buckets the held time
 * can touch (`longest` minutes from the start, widened by `buffers`), for every candidate provider,
 * and any other items the caller decides on.
 */
function readPlacement(
  medspaId: string,
  placement: {
    providerIds: readonly string[];
    room_id: string | null;
    equipment_id: string | null;
    scheduled_at: string;
  },
  longest: number,
  buffers: Buffers,
  extra: { type: 'CLIENT' | 'SERVICE'; id: string }[],
  online: OnlineReads = {},
) {
  const claims = placement.providerIds.flatMap((providerId, index) =>
    claimsOf({
      ...placement,
      ...buffersOf(buffers),
      provider_id: providerId,
      ...(index > 0 ? { room_id: null, equipment_id: null } : {}),
      end_at: addMinutes(placement.scheduled_at, longest),
    }),
  );
  return readForBooking(
    medspaId,
    [
      ...extra,
      ...placement.providerIds.map((id) => ({ type: 'PROVIDER' as const, id })),
      { type: 'ROOM', id: placement.room_id },
      { type: 'EQUIPMENT', id: placement.equipment_id },
    ],
    claims,
    online,
  );
}

/** One try of a placement: what it committed, or which condition failed, and the appointment it made. */
export type PlacementTry = { result: CommitResult; done: () => Appointment };

/** Runs attempts until one commits; a lost bucket race (or any other lost condition) is retried, a real overlap is answered at once. */
export async function withRetries<T = Appointment>(
  attempt: () => Promise<{ result: CommitResult; done: () => T }>,
): Promise<T> {
  let lastResource: ClaimedResource = 'PROVIDER';
  return retry<T>(
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

/** Who the appointment is for, decided on the placement's fresh reads (online booking matches or creates its client). */
export interface BookingClient {
  clientId: string;
  /** The candidate providers left (online booking: those whose offered slots start at this time). */
  providerIds: readonly string[];
  /** Writes that commit with the appointment, or the attempt fails and is tried again. */
  writes: (appointment: Appointment) => TransactItem[];
}

/** A booking to place: a staff create names one provider and a live client; an online booking decides its client on the reads. */
export interface Booking extends Omit<CreateAppointmentInput, 'provider_id' | 'scheduled_at' | 'client_id'> {
  scheduledAt: string;
  providerIds: readonly string[];
  /** Read with the placement, for `decide`: clients by id, and what online booking decides on. */
  clients?: readonly string[];
  online?: OnlineReads;
  /** Runs first on the reads, so a missing client is answered before a missing service (API reference, errors). */
  decide: (reads: BookingReads, service: ServiceRecord | null) => BookingClient;
  /** The service's buffers when the caller has read it already, so the first read covers its held time. */
  buffers?: Buffers;
  /** Checks right after PROVIDER_NOT_CERTIFIED in create's order (a client plan's, lib/use-cases/plan-bookings.ts). */
  afterCertified?: () => void;
}

export const createAppointment = (
  medspaId: string,
  input: CreateAppointmentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Appointment> =>
  withRetries(async () => {
    // Read afresh each try: a lost race on the plan's balance is decided again on its new state.
    const plan = input.client_plan_id ? await readPlanUse(medspaId, input.client_plan_id, now) : null;
    return placementAttempt(
      medspaId,
      {
        ...input,
        ...(plan ? { price_cents: 0, afterCertified: () => plan.check(input) } : {}),
        scheduledAt: input.scheduled_at,
        providerIds: [input.provider_id],
        decide: (reads) => {
          if (!reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
          return {
            clientId: input.client_id,
            providerIds: [input.provider_id],
            writes: (appointment) => [
              ...staffClientWrites(medspaId, appointment),
              ...(plan?.reserve(appointment) ?? []),
            ],
          };
        },
      },
      now,
      writes,
      [{ type: 'CLIENT', id: input.client_id }],
    );
  });

/**
 * A staff create's client writes: the client must still be live (closing the race with a deletion
 * committed after the read), and an online booking made by staff counts on the client's ledger.
 */
export const staffClientWrites = (medspaId: string, appointment: Appointment): TransactItem[] => [
  clientIsLive(medspaId, appointment.client_id),
  ...(appointment.source === 'online'
    ? [ledgerTrackAction(medspaId, appointment.client_id, appointment.id, appointment.end_at)]
    : []),
];

/** A placement decided on fresh reads: where it goes, for how long, on which service, for whom. */
export interface Placed<D> {
  reads: BookingReads;
  service: ServiceRecord;
  decided: D;
  placement: Placement;
  duration: number;
}

/**
 * The decision part of a placement, shared by bookings and holds: fresh reads, the caller's
 * decision on them (`decide`), the service's checks and the contract's validation order.
 */
export async function decidePlacement<D extends { providerIds: readonly string[] }>(
  medspaId: string,
  input: Omit<Booking, 'decide'> & { decide: (reads: BookingReads, service: ServiceRecord | null) => D },
  now: Date,
  extra: { type: 'CLIENT'; id: string }[] = [],
): Promise<Placed<D>> {
  const scheduledAt = new Date(input.scheduledAt).toISOString();
  assertNotPast(scheduledAt, now);
  const placementInput = {
    room_id: input.room_id ?? null,
    equipment_id: input.equipment_id ?? null,
    scheduled_at: scheduledAt,
  };
  const reads = await readCovering(
    (buffers) =>
      readPlacement(
        medspaId,
        { ...placementInput, providerIds: input.providerIds },
        input.duration_minutes ?? MAX_APPOINTMENT_MINUTES,
        buffers,
        [
          ...extra,
          ...(input.clients ?? []).map((id) => ({ type: 'CLIENT' as const, id })),
          { type: 'SERVICE', id: input.service_id },
        ],
        input.online,
      ),
    input.service_id,
    input.buffers,
  );
  const service = reads.entity('SERVICE', input.service_id);
  const decided = input.decide(reads, service);
  if (!service) throw new AppError('SERVICE_NOT_FOUND');
  if (service.active === false) {
    throw new AppError('VALIDATION_ERROR', 'The service is not active', {
      details: [{ path: 'service_id', message: 'service is not active' }],
    });
  }
  const duration = input.duration_minutes ?? service.duration_minutes;
  const placement = firstPlaceable(
    reads,
    service,
    decided.providerIds,
    {
      ...placementInput,
      end_at: addMinutes(scheduledAt, duration),
      // The service's buffers as they are now: the appointment keeps them whatever the service becomes.
      ...buffersOf(service),
    },
    undefined,
    input.afterCertified,
  );
  return { reads, service, decided, placement, duration };
}

/** One try at placing a booking: fresh reads, the caller's decision, the checks, one transaction. */
export async function placementAttempt(
  medspaId: string,
  input: Booking,
  now: Date,
  writes?: RequestWrites,
  extra: { type: 'CLIENT'; id: string }[] = [],
): Promise<PlacementTry> {
  const { reads, service, decided: client, placement, duration } = await decidePlacement(medspaId, input, now, extra);
  const appointment = newAppointment(medspaId, {
    client_id: client.clientId,
    service_id: input.service_id,
    placement,
    duration_minutes: duration,
    notes: input.notes,
    internal_notes: input.internal_notes,
    source: input.source,
    price_cents: input.price_cents ?? service.price_cents,
    moneyTerms: moneyTermsAtBooking(
      service,
      input.price_cents ?? service.price_cents,
      reads.practice,
      input.client_plan_id,
    ),
    now,
    client_plan_id: input.client_plan_id,
  });
  const result = await commitAppointment(
    { kind: 'create', appointment },
    planClaimChanges(appointment.id, [], claimsOf(appointment), reads),
    medspaId,
    client.writes(appointment),
    writes,
  );
  return { result, done: () => appointment };
}

/**
 * What an appointment snapshots at booking (API reference, section 11): the deposit its service
 * asks of its price, and the practice's cancellation policy. Staff creates snapshot the deposit
 * too but never require it (it may be paid later); later changes to either move nothing booked.
 * A plan-booked one asks none (`bookingDepositCents`).
 */
export const moneyTermsAtBooking = (
  service: ServiceRecord,
  priceCents: number,
  practice: { cancellation_policy: CancellationPolicy | null } | null,
  clientPlanId?: string | null,
) => ({
  ...NO_MONEY_TERMS,
  deposit_required_cents: bookingDepositCents(
    depositRequiredCents({ deposit: service.deposit, price_cents: priceCents }),
    clientPlanId,
  ),
  cancellation_policy: practice?.cancellation_policy ?? null,
});

/** A new scheduled appointment (a create's, or a confirmed hold's), as stored. */
export function newAppointment(
  medspaId: string,
  fields: {
    client_id: string;
    service_id: string;
    placement: Placement;
    duration_minutes: number;
    notes?: string | null;
    internal_notes?: string | null;
    source: Appointment['source'];
    price_cents: number;
    moneyTerms: ReturnType<typeof moneyTermsAtBooking>;
    now: Date;
    hold_id?: string;
    client_plan_id?: string;
    waitlist_entry_id?: string;
  },
): Appointment {
  const at = fields.now.toISOString();
  return {
    id: randomUUID(),
    medspa_id: medspaId,
    client_id: fields.client_id,
    service_id: fields.service_id,
    ...fields.placement,
    duration_minutes: fields.duration_minutes,
    status: 'scheduled',
    notes: fields.notes ?? null,
    internal_notes: fields.internal_notes ?? null,
    source: fields.source,
    price_cents: fields.price_cents,
    cancelled_at: null,
    cancellation_reason: null,
    ...fields.moneyTerms,
    hold_id: fields.hold_id ?? null,
    client_plan_id: fields.client_plan_id ?? null,
    // A series sets its own id on each of its appointments (lib/use-cases/series.ts).
    series_id: null,
    waitlist_entry_id: fields.waitlist_entry_id ?? null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

const MOVE_FIELDS = ['scheduled_at', 'duration_minutes', 'provider_id', 'room_id', 'equipment_id'] as const;

export async function updateAppointment(
  medspaId: string,
  id: string,
  input: UpdateAppointmentInput,
  /**
   * `guard`: the caller's own rule on the appointment as read (online booking: the cutoff);
   * `alsoChange`: fields the caller changes with a move (online booking: the manage link's generation).
   */
  options: {
    ifMatch?: number;
    now: Date;
    writes?: RequestWrites;
    guard?: (current: Appointment) => void;
    alsoChange?: (current: Appointment) => Record<string, unknown>;
  },
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
    for (const field of ['notes', 'internal_notes', 'price_cents'] as const)
      if (input[field] !== undefined) changes[field] = input[field];
    let claimChanges: ClaimChange[] = [];
    let updated: Appointment = { ...current, ...changes } as Appointment;
    if (moves) {
      if (!isMovable(current.status)) {
        throw new AppError(
          'INVALID_STATUS_TRANSITION',
          `A ${current.status} appointment cannot be moved; only scheduled and confirmed ones can`,
        );
      }
      assertNotPast(scheduledAt, options.now);
      const endAt = addMinutes(scheduledAt, next.duration_minutes);
      // A move keeps the appointment's own buffers, not the service's of today.
      const buffers = buffersOf(current);
      const placement = { ...next, end_at: endAt, ...buffers };
      const reads = await readPlacement(
        medspaId,
        { ...next, providerIds: [next.provider_id] },
        next.duration_minutes,
        buffers,
        [{ type: 'SERVICE', id: current.service_id }],
      );
      const service = reads.entity('SERVICE', current.service_id);
      if (!service) throw new AppError('SERVICE_NOT_FOUND');
      assertPlaceable(reads, service, placement, id);
      Object.assign(changes, placement, { duration_minutes: next.duration_minutes }, options.alsoChange?.(current));
      updated = { ...updated, ...changes } as Appointment;
      claimChanges = planClaimChanges(id, claimsOf(current), claimsOf(updated), reads);
    }
    // Values equal to the stored ones: no write, no new version.
    if (!moves && changesNothing(changes, current)) return { result: { ok: true }, done: () => current };
    const at = options.now.toISOString();
    const write: AppointmentWrite = {
      kind: 'update',
      medspaId,
      id,
      clientId: current.client_id,
      expectedVersion: current.version,
      changes,
      now: at,
    };
    // An online booking's new end goes on its client's ledger (lib/db/online-clients.ts).
    const ledger =
      moves && current.source === 'online' && updated.end_at !== current.end_at
        ? [ledgerTrackAction(medspaId, current.client_id, id, updated.end_at)]
        : [];
    const result = await commitAppointment(write, claimChanges, medspaId, ledger, options.writes);
    if (!result.ok && result.failed === 'appointment' && options.ifMatch !== undefined)
      throw new AppError('VERSION_CONFLICT');
    return { result, done: () => ({ ...updated, version: current.version + 1, updated_at: at }) };
  });
}
