import { httpHandler } from '../../lib/http/handler';
import { readPayment } from '../../lib/use-cases/payments';

export const handler = httpHandler('getPayment', async ({ caller, params }) => ({
  data: await readPayment(caller.medspaId, params.id),
}));
