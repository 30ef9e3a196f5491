import { MAX_CLAIM_MINUTES } from '../domain/claims';
import { normalizeSearchText } from '../domain/client-search';
import { withinCancelWindow } from '../domain/online-booking';
import { isMovable } from '../domain/status';
import { addMinutes } from '../domain/time';
import type { ClientRecord } from '../domain/records';
import { manageTokenValid } from '../crypto/manage-token';
import { getAppointment } from '../db/appointments';
import { findClientIndexEntries, newClientActions } from '../db/clients';
import { onlineBookingEnds } from '../db/online-booking';
import type { RequestWrites } from '../db/request-writes';
import { AppError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { PublicBookingInput, PublicBookingView } from '../schemas/public-booking';
import { changeStatus } from './appointment-status';
import { placeAppointment, updateAppointment } from './booking';
import { readForBooking, type BookingReads, type ProviderRecord, type ServiceRecord } from './booking-reads';
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

/**
 * POST /v1/public/bookings. DynamoDB calls: the email's index Query; one BatchGetItem of the
 * practice, service and matching clients (with, for an existing client, a Query of its future
 * bookings in parallel); then the booking's BatchGetItem and TransactWriteItems. A new client is
 * written in the booking's transaction, so a refused booking leaves no client behind.
 */
export async function bookOnline(medspaId: string, input: PublicBookingInput, now: Date, writes?: RequestWrites): Promise<PublicBookingView> {
  return publicly(async () => {
    const candidates = await clientIdsByEmail(medspaId, input.client.email);
    const recentStart = addMinutes(now.toISOString(), -MAX_CLAIM_MINUTES);
    const [setup, bookings] = await Promise.all([
      readForBooking(medspaId, [{ type: 'SERVICE', id: input.service_id }, ...candidates.map((id) => ({ type: 'CLIENT' as const, id }))], []),
      Promise.all(candidates.map((id) => onlineBookingEnds(medspaId, id, recentStart))),
    ]);
    const settings = enabledSettingsOf(setup.practice);
    const service = setup.entity<ServiceRecord>('SERVICE', input.service_id);
    if (!service || service.active === false) throw new AppError('SERVICE_NOT_FOUND');
    const providerIds = input.provider_id ? [input.provider_id] : [...(service.provider_ids ?? [])];
    if (providerIds.length === 0 || (input.provider_id && !(service.provider_ids ?? []).includes(input.provider_id))) {
      throw new AppError(input.provider_id ? 'PROVIDER_NOT_FOUND' : 'SERVICE_NOT_FOUND');
    }
    assertInWindow(input.scheduled_at, now, settings, setup.practice!.time_zone);

    const wanted = input.client.email.toLowerCase();
    const index = candidates.findIndex((id) => setup.entity<ClientRecord>('CLIENT', id)?.email?.toLowerCase() === wanted);
    const existing = index >= 0 ? candidates[index] : null;
    if (existing && bookings[index].filter((end) => end > now.toISOString()).length >= settings.max_active_bookings_per_client) {
      throw new AppError('BOOKING_LIMIT_REACHED');
    }
    const client = existing
      ? null
      : newClientRecord(medspaId, { ...input.client, phone: input.client.phone ?? null, membership_status: 'none' }, now);

    let reads: BookingReads | undefined;
    const appointment = await placeAppointment(medspaId, {
      client_id: existing ?? client!.id,
      newClient: client ? newClientActions(client, clientIndexOf(client)) : undefined,
      service_id: service.id,
      providerIds,
      scheduledAt: input.scheduled_at,
      notes: input.notes ?? null,
      source: 'online',
      check: (fresh) => void (reads = fresh),
    }, now, writes);
    return presentBooking(appointment, service, reads!.entity<ProviderRecord>('PROVIDER', appointment.provider_id)!);
  });
}

/** The booking a manage token opens, or 404 as if it did not exist: wrong, tampered, expired, another appointment's. */
function assertToken(medspaId: string, appointmentId: string, token: string | undefined, now: Date): void {
  if (!token || !manageTokenValid(medspaId, appointmentId, token, now)) throw new AppError('APPOINTMENT_NOT_FOUND');
}

/** Cancel and reschedule: only a scheduled or confirmed booking, and only until the practice's cutoff. */
function assertChangeable(current: Appointment, now: Date, cutoffMinutes: number): void {
  if (!isMovable(current.status)) throw new AppError('INVALID_STATUS_TRANSITION', `A ${current.status} booking cannot be changed online`);
  if (!withinCancelWindow(current.scheduled_at, now, { cancel_cutoff_minutes: cutoffMinutes })) throw new AppError('CANCEL_WINDOW_CLOSED');
}

/** The practice's settings and the booking's service and provider, for an answer. */
async function bookingContext(medspaId: string, appointment: Appointment) {
  const reads = await readForBooking(medspaId, [{ type: 'SERVICE', id: appointment.service_id }, { type: 'PROVIDER', id: appointment.provider_id }], []);
  return { reads, present: (current: Appointment) => presentBooking(current, reads.entity<ServiceRecord>('SERVICE', current.service_id)!, namedProvider(reads, current)) };
}

/** A deleted provider still has a name on the booking it kept. */
const namedProvider = (reads: { entity<T>(type: 'PROVIDER', id: string): T | null }, appointment: Appointment) =>
  reads.entity<ProviderRecord>('PROVIDER', appointment.provider_id) ?? { id: appointment.provider_id, first_name: 'Your', last_name: 'provider' };

/** GET /v1/public/bookings/{id}: GetItem of the appointment, then one BatchGetItem of the practice, service and provider. */
export async function getOnlineBooking(medspaId: string, appointmentId: string, token: string | undefined, now: Date): Promise<PublicBookingView> {
  assertToken(medspaId, appointmentId, token, now);
  const appointment = await getAppointment(medspaId, appointmentId);
  if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
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
  assertToken(medspaId, appointmentId, token, options.now);
  const appointment = await getAppointment(medspaId, appointmentId);
  if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
  const { reads, present } = await bookingContext(medspaId, appointment);
  const settings = enabledSettingsOf(reads.practice);
  const cancelled = await changeStatus(medspaId, appointmentId, 'cancelled', {
    ...options,
    guard: (current) => assertChangeable(current, options.now, settings.cancel_cutoff_minutes),
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
  assertToken(medspaId, appointmentId, token, options.now);
  return publicly(async () => {
    const appointment = await getAppointment(medspaId, appointmentId);
    if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
    const { reads, present } = await bookingContext(medspaId, appointment);
    const settings = enabledSettingsOf(reads.practice);
    assertInWindow(options.scheduledAt, options.now, settings, reads.practice!.time_zone);
    const moved = await updateAppointment(medspaId, appointmentId, { scheduled_at: options.scheduledAt }, {
      now: options.now,
      writes: options.writes,
      guard: (current) => assertChangeable(current, options.now, settings.cancel_cutoff_minutes),
    });
    return present(moved);
  });
}
