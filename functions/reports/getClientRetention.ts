import { httpHandler } from '../../lib/http/handler';
import * as reportRoutes from '../../lib/routes/reports';
import { getClientRetention } from '../../lib/use-cases/reports';

export const handler = httpHandler(reportRoutes.getClientRetention, async ({ caller, query, now }) => ({
  data: await getClientRetention(caller.medspaId, query, now),
}));
