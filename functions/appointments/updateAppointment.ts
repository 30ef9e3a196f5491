import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { updateAppointment } from '../../lib/use-cases/booking';

export const handler = httpHandler(
  appointmentRoutes.updateAppointment,
  async ({ params, body, caller, ifMatch, now, writes }) => ({
    data: await updateAppointment(caller.medspaId, params.id, body, { ifMatch, now, writes }),
  }),
);
