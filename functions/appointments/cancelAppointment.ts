import { httpHandler } from '../../lib/http/handler';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('cancelAppointment', async ({ params, body, caller, ifMatch, now }) => ({
  data: await changeStatus(caller.medspaId, params.id, 'cancelled', { ifMatch, now, reason: body?.reason }),
}));
