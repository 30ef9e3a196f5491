import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { requestReminder } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(appointmentRoutes.sendReminder, async ({ params, caller, now, writes }) => ({
  data: await requestReminder(caller.medspaId, params.id, { now, requestedBy: caller.clientId, writes }),
}));
