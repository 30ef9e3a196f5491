import { httpHandler } from '../../lib/http/handler';
import * as reportRoutes from '../../lib/routes/reports';
import { getProviderPerformance } from '../../lib/use-cases/reports';

export const handler = httpHandler(reportRoutes.getProviderPerformance, async ({ caller, query, now }) => ({
  data: await getProviderPerformance(caller.medspaId, query, now),
}));
