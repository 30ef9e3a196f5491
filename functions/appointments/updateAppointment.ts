import { httpHandler } from '../../lib/http/handler';
import { updateAppointment } from '../../lib/use-cases/booking';

export const handler = httpHandler('updateAppointment', async ({ params, body, caller, ifMatch, now }) => ({
  data: await updateAppointment(caller.medspaId, params.id, body, { ifMatch, now }),
}));
