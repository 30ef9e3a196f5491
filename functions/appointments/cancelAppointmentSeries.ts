import { httpHandler } from '../../lib/http/handler';
import * as seriesRoutes from '../../lib/routes/series';
import { cancelSeries } from '../../lib/use-cases/series';

export const handler = httpHandler(
  seriesRoutes.cancelAppointmentSeries,
  async ({ params, body, caller, now, writes }) => ({
    data: await cancelSeries(caller.medspaId, params.id, body, { now, writes }),
  }),
);
