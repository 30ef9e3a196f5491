import { httpHandler } from '../../lib/http/handler';
import * as paymentRoutes from '../../lib/routes/payments';
import { readPayment } from '../../lib/use-cases/payments';

export const handler = httpHandler(paymentRoutes.getPayment, async ({ caller, params }) => ({
  data: await readPayment(caller.medspaId, params.id),
}));
