import { httpHandler } from '../../lib/http/handler';
import * as seriesRoutes from '../../lib/routes/series';
import { createSeries } from '../../lib/use-cases/series';

export const handler = httpHandler(seriesRoutes.createAppointmentSeries, async ({ body, caller, now, writes }) => ({
  data: await createSeries(caller.medspaId, body, now, writes),
}));
