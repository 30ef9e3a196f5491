import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { appointmentDetail } from '../../lib/use-cases/appointment-queries';
import { signedConsentsOf } from '../../lib/use-cases/consents';

export const handler = httpHandler(appointmentRoutes.getAppointment, async ({ params, caller, now }) => ({
  data: await appointmentDetail(
    caller.medspaId,
    params.id,
    (clientId) => signedConsentsOf(caller.medspaId, clientId),
    now,
  ),
}));
