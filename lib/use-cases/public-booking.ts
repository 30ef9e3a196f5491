import { normalizeSearchText } from '../domain/client-search';
import { depositRequiredCents } from '../domain/deposits';
import { liveBookings, PUBLIC_SLOT_MINUTES, withinCancelWindow } from '../domain/online-booking';
import { isSlotStart } from '../domain/slots';
import { isMovable } from '../domain/status';
import { manageGenerationOf, manageTokenGeneration } from '../crypto/manage-token';
import { getAppointment } from '../db/appointments';
import { clientIsLive } from '../db/client-stats';
import { clientIndexChecks, findClientIndexEntries, newClientActions } from '../db/clients';
import { emailOwnerAction, ledgerBookAction, NO_LEDGER } from '../db/online-clients';
import { consentChangeActions } from '../db/contact-consents';
import { NO_CONSENTS, publicGrants } from '../domain/contact-consent';
import type { RequestWrites } from '../db/request-writes';
import { AppError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { PublicBookingInput, PublicBookingView } from '../schemas/public-booking';
import { changeStatus } from './appointment-status';
import { placementAttempt, updateAppointment, withRetries } from './booking';
import {
  readForBooking,
  type BookingReads,
  type EntityReads,
  type EntityRef,
  type ServiceRecord,
} from '../db/booking-reads';
import { clientIndexOf, newClientRecord } from './clients';
import { assertInWindow, enabledSettingsOf, presentBooking, publicly } from './online-booking';

/**
 * Clients booking themselves (API reference, online booking), on the staff booking's use cases:
 * the same reads, claims and conditional writes, with `source: online`, answered in public terms.
 */

/** The live clients whose email is `email`, case-insensitive: the search index's exact term, then each client's own email. */
async function clientIdsByEmail(medspaId: string, email: string): Promise<string[]> {
  const entries = await findClientIndexEntries(medspaId, `${normalizeSearchText(email)}#`);
  return [...new Set(entries.map((entry) => entry.clientId))].sort();
}

/** 409 SLOT_UNAVAILABLE unless some candidate provider's offered slots start at `scheduledAt` (one who is gone is left for the placement to refuse). */
export function offeredAt(reads: BookingReads, providerIds: readonly string[], scheduledAt: string): string[] {
  const zone = reads.practice!.time_zone;
  const offered = providerIds.filter((id) => {
    const provider = reads.entity('PROVIDER', id);
    return !provider || isSlotStart(scheduledAt, provider.working_hours ?? {}, zone, PUBLIC_SLOT_MINUTES);
  });
  if (offered.length === 0) throw new AppError('SLOT_UNAVAILABLE');
  return offered;
}

/** The practice's settings, the service and the candidate providers of a public booking or hold, checked on its setup read. */
export function publicCandidates(
  setup: BookingReads,
  input: { service_id: string; provider_id?: string; scheduled_at: string },
  now: Date,
) {
  const settings = enabledSettingsOf(setup.practice);
  const service = setup.entity('SERVICE', input.service_id);
  if (!service || service.active === false) throw new AppError('SERVICE_NOT_FOUND');
  const providerIds = input.provider_id ? [input.provider_id] : [...(service.provider_ids ?? [])];
  if (providerIds.length === 0 || (input.provider_id && !(service.provider_ids ?? []).includes(input.provider_id))) {
    throw new AppError(input.provider_id ? 'PROVIDER_NOT_FOUND' : 'SERVICE_NOT_FOUND');
  }
  assertInWindow(input.scheduled_at, now, settings, setup.practice!.time_zone);
  return { settings, service, providerIds };
}

/** What an online booking's client is decided on: the email's item and index entries, read fresh on each try. */
export async function onlineClientReads(medspaId: string, email: string, entities: EntityRef[] = []) {
  const [setup, indexed] = await Promise.all([
    readForBooking(medspaId, entities, [], { emails: [email] }),
    clientIdsByEmail(medspaId, email),
  ]);
  const owner = setup.emailOwner(email);
  const candidates = [...new Set([...(owner ? [owner] : []), ...indexed])];
  return { setup, owner, candidates };
}

/**
 * The client an online booking books as, decided on the booking's reads (which read `candidates`
 * and their ledgers): the email's own client while it still has the address, else the first live
 * client with it, else a new one; the per-client limit on its ledger. Its writes commit with the
 * appointment: a known email checks its client, index and email item where a new one puts them.
 */
export function onlineClient(
  medspaId: string,
  client: PublicBookingInput['client'],
  found: { owner: string | null; candidates: readonly string[] },
  settings: { max_active_bookings_per_client: number },
  now: Date,
  reads: BookingReads,
) {
  const wanted = client.email.toLowerCase();
  const known =
    found.candidates
      .map((id) => reads.entity('CLIENT', id))
      .find((record) => record?.email?.toLowerCase() === wanted) ?? null;
  const created = known
    ? null
    : newClientRecord(medspaId, { ...client, phone: client.phone ?? null, membership_status: 'none' }, now);
  const clientId = known?.id ?? created!.id;
  const ledger = known ? reads.ledger(known.id) : NO_LEDGER;
  // The one change a booking makes to an existing client: the consents it grants (section 14).
  const consents = known ? reads.consentState(known.id) : NO_CONSENTS;
  const grants = publicGrants(consents, client.consents);
  const live = liveBookings(ledger.ends, now);
  if (Object.keys(live).length >= settings.max_active_bookings_per_client) throw new AppError('BOOKING_LIMIT_REACHED');
  return {
    clientId,
    writes: (placed: Appointment) => [
      ...(created
        ? newClientActions(created, clientIndexOf(created))
        : [clientIsLive(medspaId, clientId), ...clientIndexChecks(medspaId, clientId, clientIndexOf(known!))]),
      emailOwnerAction(medspaId, client.email, found.owner, clientId),
      ledgerBookAction(medspaId, clientId, ledger, { ...live, [placed.id]: placed.end_at }),
      ...consentChangeActions(medspaId, clientId, consents, grants, now.toISOString()).actions,
    ],
  };
}

/**
 * POST /v1/public/bookings. Each try: the email's index Query in parallel with one BatchGetItem of
 * the practice, service and email item; then the booking's BatchGetItem (with the matching
 * clients and their ledgers) and its TransactWriteItems. A new email and a known one make the
 * same calls in the same order (no timing tells them apart by round trips). One client per
 * email and the per-client limit are conditions in the booking's own transaction (the email
 * item, the client's ledger: lib/db/online-clients.ts), so a try that lost a race to a booking
 * by the same email fails whole and decides again on fresh reads; a refused booking leaves no
 * client behind.
 */
export async function bookOnline(
  medspaId: string,
  input: PublicBookingInput,
  now: Date,
  writes?: RequestWrites,
): Promise<PublicBookingView> {
  return publicly(async () => {
    let shown: { service: ServiceRecord; reads: BookingReads } | undefined;
    const appointment = await withRetries(async () => {
      const found = await onlineClientReads(medspaId, input.client.email, [{ type: 'SERVICE', id: input.service_id }]);
      const { settings, service, providerIds } = publicCandidates(found.setup, input, now);
      // A service that asks a deposit is booked online only through a hold confirmed with it (section 11).
      if (depositRequiredCents(service) > 0) throw new AppError('DEPOSIT_REQUIRED');
      return placementAttempt(
        medspaId,
        {
          service_id: service.id,
          buffers: service,
          providerIds,
          scheduledAt: input.scheduled_at,
          notes: input.notes ?? null,
          source: 'online',
          clients: found.candidates,
          online: { ledgersOf: found.candidates, consentStatesOf: input.client.consents ? found.candidates : [] },
          decide: (reads) => {
            shown = { service, reads };
            return {
              ...onlineClient(medspaId, input.client, found, settings, now, reads),
              providerIds: offeredAt(reads, providerIds, input.scheduled_at),
            };
          },
        },
        now,
        writes,
      );
    });
    return presentBooking(appointment, shown!.service, shown!.reads.entity('PROVIDER', appointment.provider_id)!);
  });
}

/**
 * The booking a manage token opens, or 404 as if it did not exist: wrong, tampered, expired,
 * another appointment's, or handed out before a reschedule. Checked without a read first, then
 * against the appointment's generation once read.
 */
function assertToken(medspaId: string, appointmentId: string, token: string | undefined, now: Date): number {
  const generation = token ? manageTokenGeneration(medspaId, appointmentId, token, now) : null;
  if (generation === null) throw new AppError('APPOINTMENT_NOT_FOUND');
  return generation;
}

/** The appointment a token opens: it exists and the token is of its current generation (also the booking forms' gate, lib/use-cases/public-forms.ts). */
export async function openedAppointment(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  now: Date,
): Promise<Appointment> {
  const generation = assertToken(medspaId, appointmentId, token, now);
  const appointment = await getAppointment(medspaId, appointmentId);
  if (!appointment || manageGenerationOf(appointment) !== generation) throw new AppError('APPOINTMENT_NOT_FOUND');
  return appointment;
}

/**
 * Cancel and reschedule: only a scheduled or confirmed booking, only until the practice's cutoff,
 * and only with a link of its generation as now read (a concurrent reschedule retired it).
 */
function assertChangeable(current: Appointment, now: Date, cutoffMinutes: number, generation: number): void {
  if (manageGenerationOf(current) !== generation) throw new AppError('APPOINTMENT_NOT_FOUND');
  if (!isMovable(current.status))
    throw new AppError('INVALID_STATUS_TRANSITION', `A ${current.status} booking cannot be changed online`);
  if (!withinCancelWindow(current.scheduled_at, now, { cancel_cutoff_minutes: cutoffMinutes }))
    throw new AppError('CANCEL_WINDOW_CLOSED');
}

/** The practice's settings and the booking's service and provider, for an answer. */
async function bookingContext(medspaId: string, appointment: Appointment) {
  const reads = await readForBooking(
    medspaId,
    [
      { type: 'SERVICE', id: appointment.service_id },
      { type: 'PROVIDER', id: appointment.provider_id },
    ],
    [],
  );
  return {
    reads,
    present: (current: Appointment) =>
      presentBooking(current, reads.entity('SERVICE', current.service_id)!, namedProvider(reads, current)),
  };
}

/** A deleted provider still has a name on the booking it kept. */
const namedProvider = (reads: EntityReads, appointment: Appointment) =>
  reads.entity('PROVIDER', appointment.provider_id) ?? {
    id: appointment.provider_id,
    first_name: 'Your',
    last_name: 'provider',
  };

/** GET /v1/public/bookings/{id}: GetItem of the appointment, then one BatchGetItem of the practice, service and provider. */
export async function getOnlineBooking(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  now: Date,
): Promise<PublicBookingView> {
  const appointment = await openedAppointment(medspaId, appointmentId, token, now);
  const { reads, present } = await bookingContext(medspaId, appointment);
  enabledSettingsOf(reads.practice);
  return present(appointment);
}

/** POST …/cancel: the staff cancel (same transaction, same claim release), until the cutoff. */
export async function cancelOnlineBooking(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  options: { now: Date; reason?: string; writes?: RequestWrites },
): Promise<PublicBookingView> {
  const appointment = await openedAppointment(medspaId, appointmentId, token, options.now);
  const { reads, present } = await bookingContext(medspaId, appointment);
  const settings = enabledSettingsOf(reads.practice);
  const cancelled = await changeStatus(medspaId, appointmentId, 'cancelled', {
    ...options,
    guard: (current) =>
      assertChangeable(current, options.now, settings.cancel_cutoff_minutes, manageGenerationOf(appointment)),
  });
  return present(cancelled);
}

/** POST …/reschedule: the staff move (same provider, same rules and claims), inside the window and until the cutoff. */
export async function rescheduleOnlineBooking(
  medspaId: string,
  appointmentId: string,
  token: string | undefined,
  options: { now: Date; scheduledAt: string; writes?: RequestWrites },
): Promise<PublicBookingView> {
  const generation = assertToken(medspaId, appointmentId, token, options.now);
  return publicly(async () => {
    const appointment = await openedAppointment(medspaId, appointmentId, token, options.now);
    const { reads, present } = await bookingContext(medspaId, appointment);
    const settings = enabledSettingsOf(reads.practice);
    assertInWindow(options.scheduledAt, options.now, settings, reads.practice!.time_zone);
    offeredAt(reads, [appointment.provider_id], options.scheduledAt);
    const moved = await updateAppointment(
      medspaId,
      appointmentId,
      { scheduled_at: options.scheduledAt },
      {
        now: options.now,
        writes: options.writes,
        guard: (current) => assertChangeable(current, options.now, settings.cancel_cutoff_minutes, generation),
        // The links handed out so far stop working; the answer (and the event) carries the new one.
        alsoChange: (current) => ({ manage_generation: manageGenerationOf(current) + 1 }),
      },
    );
    return present(moved);
  });
}
