import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(
  appointmentRoutes.updateAppointmentStatus,
  async ({ params, body, caller, ifMatch, now, writes }) => ({
    data: await changeStatus(caller.medspaId, params.id, body.status, { ifMatch, now, writes }),
  }),
);
