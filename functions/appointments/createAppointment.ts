import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { createAppointment } from '../../lib/use-cases/booking';

export const handler = httpHandler(appointmentRoutes.createAppointment, async ({ body, caller, now, writes }) => ({
  data: await createAppointment(caller.medspaId, body, now, writes),
}));
