import {
  bookingWindow,
  displayName,
  onlineBookingOf,
  outsideWindow,
  type OnlineBookingSettings,
} from '../domain/online-booking';
import { AppError, isAppError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { PublicBookingView } from '../schemas/public-booking';
import { issueManageToken } from '../crypto/manage-token';
import type { ProviderRecord, ServiceRecord } from '../db/booking-reads';

/**
 * What the public operations share (API reference, online booking): the practice's settings, the
 * booking window as a validation error, the staff answers a stranger may not see, and a booking as
 * its client sees it.
 */

/** The practice's online booking settings with their defaults; the one place that reads them. */
export const onlineBookingSettingsOf = (
  practice: { online_booking?: Partial<OnlineBookingSettings> } | object,
): OnlineBookingSettings =>
  onlineBookingOf((practice as { online_booking?: Partial<OnlineBookingSettings> }).online_booking);

/** 403 while the practice has not opted in. */
export function enabledSettingsOf(practice: object | null): OnlineBookingSettings {
  if (!practice) throw new AppError('UNAUTHORIZED');
  const settings = onlineBookingSettingsOf(practice);
  if (!settings.enabled) throw new AppError('ONLINE_BOOKING_DISABLED');
  return settings;
}

/** 400 at `scheduled_at` when the start is outside the booking window. */
export function assertInWindow(
  scheduledAt: string,
  now: Date,
  settings: OnlineBookingSettings,
  timeZone: string,
): void {
  const why = outsideWindow(new Date(scheduledAt).toISOString(), now, settings, timeZone);
  if (why)
    throw new AppError('VALIDATION_ERROR', `scheduled_at is outside the online booking window: ${why}`, {
      details: [{ path: 'scheduled_at', message: `must be ${why}` }],
    });
}

export { bookingWindow };

/** Any refusal of the time, whoever holds it and why: one code, no details. */
const SLOT_REFUSALS = new Set<string>(['PROVIDER_UNAVAILABLE', 'ROOM_UNAVAILABLE', 'EQUIPMENT_UNAVAILABLE']);

/**
 * A staff answer as a stranger may see it: refusals of the time become SLOT_UNAVAILABLE (no
 * holder, no reason); a provider not offered for the service is not found; an inactive service
 * is not found. Other errors pass unchanged.
 */
export function asPublicError(error: unknown): unknown {
  if (!isAppError(error)) return error;
  if (SLOT_REFUSALS.has(error.code)) return new AppError('SLOT_UNAVAILABLE');
  if (error.code === 'PROVIDER_NOT_CERTIFIED') return new AppError('PROVIDER_NOT_FOUND');
  if (error.code === 'VALIDATION_ERROR' && error.details?.some((detail) => detail.path === 'service_id'))
    return new AppError('SERVICE_NOT_FOUND');
  return error;
}

/** Runs `work`, answering in public terms. */
export async function publicly<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asPublicError(error);
  }
}

export const publicProvider = (provider: Pick<ProviderRecord, 'id' | 'first_name' | 'last_name'>) => ({
  id: provider.id,
  display_name: displayName(provider),
});

/** A booking as its client sees it, with a fresh manage token of its current generation, valid until it ends. */
export const presentBooking = (
  appointment: Appointment,
  service: Pick<ServiceRecord, 'id' | 'name'>,
  provider: Pick<ProviderRecord, 'id' | 'first_name' | 'last_name'>,
): PublicBookingView => ({
  appointment_id: appointment.id,
  status: appointment.status,
  scheduled_at: appointment.scheduled_at,
  duration_minutes: appointment.duration_minutes,
  service: { id: service.id, name: service.name },
  provider: publicProvider(provider),
  manage_token: issueManageToken(appointment),
});
