import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(appointmentRoutes.markNoShow, async ({ params, caller, ifMatch, now, writes }) => ({
  data: await changeStatus(caller.medspaId, params.id, 'no_show', { ifMatch, now, writes }),
}));
