import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { bucketConflicts, bucketIdsFor } from '../domain/claims';
import { buffersOf, type Buffers } from '../domain/held-time';
import { holdRefusal, holdStatus, isLiveEntry, liveHolds, MAX_PUBLIC_HOLDS_PER_IP } from '../domain/holds';
import type { HoldRecord } from '../domain/records';
import { commitAppointment, commitWithClaims, type TransactItem } from '../db/appointments';
import { withPaymentItems } from '../db/payments';
import { NO_MONEY_TERMS, bookingDepositCents, depositRequiredCents } from '../domain/deposits';
import type { PaymentMethod } from '../domain/records';
import { depositPayment } from './payments';
import {
  readEntities,
  readForBooking,
  type BookingReads,
  type OnlineReads,
  type ServiceRecord,
} from '../db/booking-reads';
import {
  getHold,
  holdIpBookAction,
  holdIpReleaseAction,
  holdPutAction,
  holdTransitionAction,
  readHoldIpLedger,
} from '../db/holds';
import type { RequestWrites } from '../db/request-writes';
import { AppError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { ConfirmHoldInput, CreateHoldInput, HoldView } from '../schemas/holds';
import { claimsOf, decidePlacement, newAppointment, planClaimChanges, staffClientWrites, withRetries } from './booking';
import { readPlanUse } from './plan-bookings';

/**
 * Holds (API reference, holds; docs/decisions/0001 for the claims): a hold is placed by the
 * booking's own machinery (decidePlacement: the same reads, checks and order) and writes the same
 * claims an appointment does, its entries marked as a hold's with its `expires_at`, in one
 * transaction with the hold item. Expiry is decided where claims are read (an expired entry blocks
 * nothing, and every bucket write prunes it), so no sweep is needed. A confirm replaces the hold's
 * entries by the appointment's in the appointment's own transaction, conditioned on the hold being
 * active and unexpired and on every bucket's version: of a confirm and a booking that ignored the
 * just-expired hold, only one commits.
 */

/** A hold as answered: its status computed at `now`. */
export const holdView = (hold: HoldRecord, now: Date): HoldView => {
  const status = holdStatus(hold, now.getTime());
  return {
    id: hold.id,
    status,
    service_id: hold.service_id,
    provider_id: hold.provider_id,
    room_id: hold.room_id,
    equipment_id: hold.equipment_id,
    scheduled_at: hold.scheduled_at,
    end_at: hold.end_at,
    duration_minutes: hold.duration_minutes,
    buffer_before_minutes: hold.buffer_before_minutes,
    buffer_after_minutes: hold.buffer_after_minutes,
    expires_at: hold.expires_at,
    deposit_required_cents: hold.deposit_required_cents,
    ...(hold.appointment_id ? { appointment_id: hold.appointment_id } : {}),
    created_at: hold.created_at,
  };
};

/** What a hold is placed with; a public hold also names its providers on the reads and its hashed IP. */
export interface HoldRequest {
  service_id: string;
  scheduledAt: string;
  providerIds: readonly string[];
  room_id?: string | null;
  equipment_id?: string | null;
  duration_minutes?: number;
  expiresInSeconds: number;
  /** The candidate providers left on the reads (public holds: those whose offered slots start then). */
  providersOn?: (reads: BookingReads, service: ServiceRecord | null) => readonly string[];
  /** A public hold counts on its client IP's ledger (at most MAX_PUBLIC_HOLDS_PER_IP active ones). */
  ipHash?: string;
  /** The service's buffers when the caller has read it already: the placement then reads its buckets once. */
  buffers?: Buffers;
  /** Writes that commit with the hold, built afresh each try (a waitlist offer's entry and freed time). */
  alongside?: (hold: HoldRecord) => Promise<TransactItem[]>;
}

/** Places a hold: one TransactWriteItems of the hold, its claims and (public) its IP's ledger; lost races retried. */
export async function placeHold(
  medspaId: string,
  request: HoldRequest,
  now: Date,
  writes?: RequestWrites,
): Promise<{ hold: HoldRecord; reads: BookingReads; service: ServiceRecord }> {
  return withRetries(async () => {
    // The IP's ledger (public holds) is read beside the placement's reads: one round trip, not two.
    const [ledger, { reads, service, placement, duration }] = await Promise.all([
      request.ipHash ? readHoldIpLedger(medspaId, request.ipHash) : null,
      decidePlacement(
        medspaId,
        {
          service_id: request.service_id,
          scheduledAt: request.scheduledAt,
          providerIds: request.providerIds,
          room_id: request.room_id,
          equipment_id: request.equipment_id,
          duration_minutes: request.duration_minutes,
          buffers: request.buffers,
          source: 'manual',
          decide: (found, service) => ({
            providerIds: request.providersOn?.(found, service) ?? request.providerIds,
          }),
        },
        now,
      ),
    ]);
    const live = ledger ? liveHolds(ledger.holds, clock().now().getTime()) : {};
    if (Object.keys(live).length >= MAX_PUBLIC_HOLDS_PER_IP) throw new AppError('HOLD_LIMIT_REACHED');
    const at = now.toISOString();
    const hold: HoldRecord = {
      id: randomUUID(),
      medspa_id: medspaId,
      service_id: service.id,
      ...placement,
      duration_minutes: duration,
      ...buffersOf(service),
      expires_at: new Date(now.getTime() + request.expiresInSeconds * 1000).toISOString(),
      deposit_required_cents: depositRequiredCents(service),
      status: 'active',
      appointment_id: null,
      ip_hash: request.ipHash ?? null,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    const result = await commitWithClaims(
      holdPutAction(hold),
      planClaimChanges(hold.id, [], claimsOf(hold), reads, { hold: { expires_at: hold.expires_at } }),
      medspaId,
      [
        ...(ledger && request.ipHash
          ? [holdIpBookAction(medspaId, request.ipHash, ledger, { ...live, [hold.id]: hold.expires_at })]
          : []),
        ...((await request.alongside?.(hold)) ?? []),
      ],
      writes,
    );
    return { result, done: () => ({ hold, reads, service }) };
  });
}

/** POST /v1/holds. */
export async function createHold(
  medspaId: string,
  input: CreateHoldInput,
  now: Date,
  writes?: RequestWrites,
): Promise<HoldView> {
  // Without a provider, the service's certified ones are the candidates (the placement takes the first free one).
  const service = input.provider_id
    ? null
    : (await readEntities(medspaId, [{ type: 'SERVICE', id: input.service_id }])).entity('SERVICE', input.service_id);
  const providerIds = input.provider_id ? [input.provider_id] : (service?.provider_ids ?? []);
  const { hold } = await placeHold(
    medspaId,
    {
      service_id: input.service_id,
      scheduledAt: input.scheduled_at,
      providerIds,
      room_id: input.room_id,
      equipment_id: input.equipment_id,
      duration_minutes: input.duration_minutes,
      expiresInSeconds: input.expires_in_seconds,
      buffers: service ?? undefined,
    },
    now,
    writes,
  );
  return holdView(hold, now);
}

/** The hold, or 404. */
export async function readHold(medspaId: string, id: string): Promise<HoldRecord> {
  const hold = await getHold(medspaId, id);
  if (!hold) throw new AppError('HOLD_NOT_FOUND');
  return hold;
}

/** GET /v1/holds/{id}. */
export const showHold = async (medspaId: string, id: string, now: Date): Promise<HoldView> =>
  holdView(await readHold(medspaId, id), now);

/**
 * Releases a hold: its claims and its IP's place freed at once, in one transaction with the hold
 * item's move to `released` (conditioned on it being active). An expired hold may be released too
 * (it already holds nothing); a released or confirmed one is 409 HOLD_NOT_ACTIVE.
 */
export async function releaseHold(
  medspaId: string,
  id: string,
  /** `alongside`: writes that commit with the release, built afresh each try (a waitlist decline's entry). */
  options: { now: Date; writes?: RequestWrites; alongside?: () => Promise<TransactItem[]> },
): Promise<{ id: string; deleted: true }> {
  return withRetries(async () => {
    const hold = await readHold(medspaId, id);
    if (hold.status !== 'active') throw new AppError('HOLD_NOT_ACTIVE');
    const result = await commitWithClaims(
      holdTransitionAction(medspaId, id, { status: 'released' }, options.now.toISOString()),
      planClaimChanges(hold.id, claimsOf(hold), []),
      medspaId,
      [
        ...(hold.ip_hash ? [holdIpReleaseAction(medspaId, hold.ip_hash, hold.id)] : []),
        ...((await options.alongside?.()) ?? []),
      ],
      options.writes,
    );
    return { result, done: () => ({ id, deleted: true as const }) };
  });
}

/** Who a confirm books for, decided on the confirm's fresh reads (staff: a live client; online: matched or created by email). */
export interface HoldBooking {
  clients?: readonly string[];
  online?: OnlineReads;
  decide: (reads: BookingReads) => { clientId: string; writes: (appointment: Appointment) => TransactItem[] };
  fields: Pick<ConfirmHoldInput, 'notes' | 'internal_notes' | 'price_cents' | 'client_plan_id'> & {
    source: Appointment['source'];
    /** A waitlist offer's accept: the entry the appointment is booked from. */
    waitlist_entry_id?: string;
  };
  /** The deposit the integrator's processor charged: recorded as a `kind: deposit` payment in the confirm's own write. */
  deposit?: HeldDeposit;
}

export type HeldDeposit = { amount_cents: number; method: PaymentMethod; reference?: string | null };

/** A service that asks a deposit is confirmed only with at least that deposit (the hold stays active otherwise). */
function assertDeposit(required: number, deposit: HeldDeposit | undefined): void {
  if (required > 0 && (deposit?.amount_cents ?? 0) < required) {
    throw new AppError('DEPOSIT_REQUIRED', `This service asks a deposit of ${required} cents`, {
      details: [{ path: 'deposit.amount_cents', message: `at least ${required} is required` }],
    });
  }
}

/**
 * Whether the hold still holds every bucket it claimed, with nothing live overlapping it, at `now`.
 * Not so once it has expired (a booking that committed after that pruned its entry) or once it
 * was released or confirmed since the hold item was read: the caller tells them apart on a fresh read.
 */
function stillHeld(hold: HoldRecord, reads: BookingReads, now: number): boolean {
  return claimsOf(hold).every((claim) =>
    bucketIdsFor(claim.start, claim.end).every((hour) => {
      const entries = reads.buckets(claim.resource, claim.resourceId).find((read) => read.hour === hour)?.entries ?? [];
      const live = entries.filter((entry) => isLiveEntry(entry, now));
      return (
        entries.some((entry) => entry.appointment_id === hold.id) && bucketConflicts(live, claim, hold.id).length === 0
      );
    }),
  );
}

/**
 * Books a held time: one TransactWriteItems of the appointment (`hold_id` set), every bucket's hold
 * entry replaced by the appointment's (conditioned on the version read), the hold item moved to
 * `confirmed` on condition it is active and unexpired, the client's writes and a deposit's payment. A
 * lost race is tried again on fresh reads: while the hold is active nothing else can hold its
 * time, so only the hold's own fate (expired, released, confirmed by another) refuses it.
 */
export async function bookHold(
  medspaId: string,
  holdId: string,
  /** The booking, or how to make it on fresh reads of its own each try (online: the email's client). */
  prepare: HoldBooking | ((hold: HoldRecord) => Promise<HoldBooking>),
  now: Date,
  writes?: RequestWrites,
): Promise<{ appointment: Appointment; hold: HoldRecord; reads: BookingReads }> {
  return withRetries(async () => {
    const hold = await readHold(medspaId, holdId);
    const refusal = holdRefusal(holdStatus(hold, clock().now().getTime()));
    if (refusal) throw new AppError(refusal);
    const booking = typeof prepare === 'function' ? await prepare(hold) : prepare;
    // The deposit the hold quoted, unless the appointment is plan-booked (then none: section 12).
    const depositRequired = bookingDepositCents(hold.deposit_required_cents, booking.fields.client_plan_id);
    assertDeposit(depositRequired, booking.deposit);
    const reads = await readForBooking(
      medspaId,
      [
        { type: 'SERVICE', id: hold.service_id },
        { type: 'PROVIDER', id: hold.provider_id },
        ...(booking.clients ?? []).map((id) => ({ type: 'CLIENT' as const, id })),
      ],
      claimsOf(hold),
      booking.online,
    );
    const client = booking.decide(reads);
    const checkedAt = clock().now();
    if (!stillHeld(hold, reads, checkedAt.getTime())) {
      if (holdStatus(hold, checkedAt.getTime()) === 'expired') throw new AppError('HOLD_EXPIRED');
      // Released or confirmed by another since the hold was read: the next try reads it again.
      return {
        result: { ok: false, failed: 'appointment' } as const,
        done: () => {
          throw new Error('a hold not held was never booked');
        },
      };
    }
    const service = reads.entity('SERVICE', hold.service_id);
    const appointment = newAppointment(medspaId, {
      client_id: client.clientId,
      service_id: hold.service_id,
      placement: {
        provider_id: hold.provider_id,
        room_id: hold.room_id,
        equipment_id: hold.equipment_id,
        scheduled_at: hold.scheduled_at,
        end_at: hold.end_at,
        // The held time is the appointment's: its buffers come with it.
        ...buffersOf(hold),
      },
      duration_minutes: hold.duration_minutes,
      notes: booking.fields.notes,
      internal_notes: booking.fields.internal_notes,
      source: booking.fields.source,
      price_cents: booking.fields.price_cents ?? service?.price_cents ?? 0,
      // The deposit is the one the hold quoted; the policy is the practice's as the hold is confirmed.
      moneyTerms: {
        ...NO_MONEY_TERMS,
        deposit_required_cents: depositRequired,
        deposit_paid_cents: booking.deposit?.amount_cents ?? 0,
        cancellation_policy: reads.practice?.cancellation_policy ?? null,
      },
      now,
      hold_id: hold.id,
      client_plan_id: booking.fields.client_plan_id,
      waitlist_entry_id: booking.fields.waitlist_entry_id,
    });
    const alongside: TransactItem[] = [
      holdTransitionAction(
        medspaId,
        hold.id,
        { status: 'confirmed', appointment_id: appointment.id, notExpiredAt: checkedAt.toISOString() },
        now.toISOString(),
      ),
      ...(hold.ip_hash ? [holdIpReleaseAction(medspaId, hold.ip_hash, hold.id)] : []),
      ...client.writes(appointment),
    ];
    const result = await commitAppointment(
      { kind: 'create', appointment },
      planClaimChanges(appointment.id, [], claimsOf(appointment), reads, { replaces: hold.id }),
      medspaId,
      booking.deposit
        ? withPaymentItems(
            alongside,
            depositPayment(medspaId, appointment, booking.deposit, {
              currency: reads.practice?.currency ?? 'USD',
              now,
            }),
          )
        : alongside,
      writes,
    );
    return { result, done: () => ({ appointment, hold, reads }) };
  });
}

/**
 * POST /v1/holds/{id}/confirm: the staff create's client rule (the client must be live, checked in
 * the transaction); a deposit given is recorded in the same write (422 DEPOSIT_REQUIRED below the hold's).
 */
export async function confirmHold(
  medspaId: string,
  holdId: string,
  input: ConfirmHoldInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Appointment> {
  const { appointment } = await bookHold(
    medspaId,
    holdId,
    // The plan is read afresh each try, as a create's (lib/use-cases/plan-bookings.ts).
    async (hold) => {
      const plan = input.client_plan_id ? await readPlanUse(medspaId, input.client_plan_id, now) : null;
      return {
        clients: [input.client_id],
        decide: (reads) => {
          if (!reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
          plan?.check({ client_id: input.client_id, service_id: hold.service_id });
          return {
            clientId: input.client_id,
            writes: (placed) => [...staffClientWrites(medspaId, placed), ...(plan?.reserve(placed) ?? [])],
          };
        },
        fields: plan ? { ...input, price_cents: 0 } : input,
        deposit: input.deposit,
      };
    },
    now,
    writes,
  );
  return appointment;
}
