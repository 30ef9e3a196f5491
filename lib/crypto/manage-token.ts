import { open, seal } from './sealed';

/**
 * Manage tokens of online bookings (API reference, online booking): sealed like the cursors, bound
 * to the practice and the appointment, valid until the appointment ends. Whoever holds one may
 * see, cancel or move that one booking; any other use is indistinguishable from a missing booking.
 */
const PURPOSE = 'medspa-manage-booking';

export const issueManageToken = (medspaId: string, appointmentId: string, endsAt: string): string =>
  seal(PURPOSE, [medspaId, appointmentId], null, Math.ceil(Date.parse(endsAt) / 1000));

/** Whether `token` was issued for this appointment of this practice and has not expired at `now`. */
export const manageTokenValid = (medspaId: string, appointmentId: string, token: string, now: Date): boolean =>
  open(PURPOSE, [medspaId, appointmentId], token, Math.floor(now.getTime() / 1000)).ok;
