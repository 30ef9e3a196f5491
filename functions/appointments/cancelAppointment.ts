import { ALLOW } from '../../lib/auth/roles';
import { AppError } from '../../lib/errors';
import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(
  appointmentRoutes.cancelAppointment,
  async ({ params, body, caller, ifMatch, now, writes }) => {
    // Waiving a fee is the waive route's decision, and its roles' (API reference, section 11).
    if (body?.waive_fee && !(ALLOW.feeWaivers as readonly string[]).includes(caller.role))
      throw new AppError('FORBIDDEN', 'Only admin and manager may waive a fee');
    return {
      data: await changeStatus(caller.medspaId, params.id, 'cancelled', {
        ifMatch,
        now,
        writes,
        reason: body?.reason,
        waiveFee: body?.waive_fee,
      }),
    };
  },
);
