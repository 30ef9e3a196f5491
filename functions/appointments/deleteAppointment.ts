import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { deleteAppointment } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(
  appointmentRoutes.deleteAppointment,
  async ({ params, caller, ifMatch, writes }) => ({
    data: await deleteAppointment(caller.medspaId, params.id, { ifMatch, writes }),
  }),
);
