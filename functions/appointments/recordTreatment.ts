import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { recordTreatment } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler(appointmentRoutes.recordTreatment, async ({ params, body, caller, now }) => ({
  data: await recordTreatment(caller.medspaId, params.id, body, { now, recordedBy: caller.clientId }),
}));
