import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { waiveAppointmentFee } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(
  appointmentRoutes.waiveAppointmentFee,
  async ({ params, body, caller, now, writes }) => ({
    data: await waiveAppointmentFee(caller.medspaId, params.id, params.kind, { now, writes, reason: body.reason }),
  }),
);
