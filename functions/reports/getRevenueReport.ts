import { httpHandler } from '../../lib/http/handler';
import * as reportRoutes from '../../lib/routes/reports';
import { getRevenueReport } from '../../lib/use-cases/reports';

export const handler = httpHandler(reportRoutes.getRevenueReport, async ({ caller, query, now }) => ({
  data: await getRevenueReport(caller.medspaId, query, now),
}));
