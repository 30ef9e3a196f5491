import { httpHandler } from '../../lib/http/handler';
import * as seriesRoutes from '../../lib/routes/series';
import { showSeries } from '../../lib/use-cases/series';

export const handler = httpHandler(seriesRoutes.getAppointmentSeries, async ({ params, caller }) => ({
  data: await showSeries(caller.medspaId, params.id),
}));
