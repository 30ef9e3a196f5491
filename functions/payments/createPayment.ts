import { httpHandler } from '../../lib/http/handler';
import { createPayment } from '../../lib/use-cases/payments';

export const handler = httpHandler('createPayment', async ({ caller, body, now }) => ({
  data: await createPayment(caller.medspaId, body, now),
}));
