import { httpHandler } from '../../lib/http/handler';
import { deleteAppointment } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('deleteAppointment', async ({ params, caller, ifMatch }) => ({
  data: await deleteAppointment(caller.medspaId, params.id, { ifMatch }),
}));
