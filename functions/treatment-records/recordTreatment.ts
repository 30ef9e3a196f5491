import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { recordTreatment } from '../../lib/use-cases/treatment-records';

export const handler = httpHandler(
  appointmentRoutes.recordTreatment,
  async ({ params, body, caller, now, writes }) => ({
    data: await recordTreatment(caller.medspaId, params.id, body, { now, by: caller.clientId, writes }),
  }),
);
