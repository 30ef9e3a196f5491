import { open, seal } from './sealed';

/**
 * Manage tokens of online bookings (API reference, online booking): sealed like the cursors, bound
 * to the practice and the appointment, valid until the appointment ends. Whoever holds one may
 * see, cancel or move that one booking; any other use is indistinguishable from a missing booking.
 * A token carries the appointment's manage generation: a public reschedule moves it on, so the
 * tokens handed out before stop working (the new one is in the reschedule's answer and event).
 */
const PURPOSE = 'medspa-manage-booking';

/** The generation of a manage link on an appointment (`manage_generation`; absent on one never rescheduled online). */
export const manageGenerationOf = (appointment: { id: string; manage_generation?: number }) =>
  appointment.manage_generation ?? 0;

export const issueManageToken = (appointment: {
  medspa_id: string;
  id: string;
  end_at: string;
  manage_generation?: number;
}): string =>
  seal(
    PURPOSE,
    [appointment.medspa_id, appointment.id],
    manageGenerationOf(appointment),
    Math.ceil(Date.parse(appointment.end_at) / 1000),
  );

/**
 * The generation `token` was issued at, when it was issued for this appointment of this practice
 * and has not expired at `now`; null otherwise. Checked against the appointment once it is read.
 */
export function manageTokenGeneration(
  medspaId: string,
  appointmentId: string,
  token: string,
  now: Date,
): number | null {
  const opened = open(PURPOSE, [medspaId, appointmentId], token, Math.floor(now.getTime() / 1000));
  if (!opened.ok) return null;
  return typeof opened.payload === 'number' ? opened.payload : 0;
}

/** Whether `token` opens this appointment at `now`, whatever its generation (the cheap check before any read). */
export const manageTokenValid = (medspaId: string, appointmentId: string, token: string, now: Date): boolean =>
  manageTokenGeneration(medspaId, appointmentId, token, now) !== null;
