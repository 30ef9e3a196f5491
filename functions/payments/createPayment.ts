import { httpHandler } from '../../lib/http/handler';
import * as paymentRoutes from '../../lib/routes/payments';
import { createPayment } from '../../lib/use-cases/payments';

export const handler = httpHandler(paymentRoutes.createPayment, async ({ caller, body, now, writes }) => ({
  data: await createPayment(caller.medspaId, body, now, writes),
}));
