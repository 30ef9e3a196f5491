import { httpHandler } from '../../lib/http/handler';
import * as reportRoutes from '../../lib/routes/reports';
import { getServicePopularity } from '../../lib/use-cases/reports';

export const handler = httpHandler(reportRoutes.getServicePopularity, async ({ caller, query, now }) => ({
  data: await getServicePopularity(caller.medspaId, query, now),
}));
