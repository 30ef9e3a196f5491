import { httpHandler } from '../../lib/http/handler';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('updateAppointmentStatus', async ({ params, body, caller, ifMatch, now }) => ({
  data: await changeStatus(caller.medspaId, params.id, body.status, { ifMatch, now }),
}));
