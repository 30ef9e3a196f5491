import { httpHandler } from '../../lib/http/handler';
import * as paymentRoutes from '../../lib/routes/payments';
import { listPayments } from '../../lib/use-cases/payments';

export const handler = httpHandler(paymentRoutes.listPayments, async ({ caller, query, now }) =>
  listPayments(caller.medspaId, query, now),
);
