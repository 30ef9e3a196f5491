import { httpHandler } from '../../lib/http/handler';
import { createAppointment } from '../../lib/use-cases/booking';

export const handler = httpHandler('createAppointment', async ({ body, caller, now }) => ({
  data: await createAppointment(caller.medspaId, body, now),
}));
