import { httpHandler } from '../../lib/http/handler';
import { listPayments } from '../../lib/use-cases/payments';

export const handler = httpHandler('listPayments', async ({ caller, query, now }) => listPayments(caller.medspaId, query, now));
