import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { listAppointments } from '../../lib/use-cases/appointment-queries';
import { toListResult } from '../../lib/use-cases/list-result';

export const handler = httpHandler(appointmentRoutes.getAppointments, async ({ query, caller, now }) => {
  const page = await listAppointments(
    caller.medspaId,
    {
      from: query.from ?? query.startDate,
      to: query.to ?? query.endDate,
      providerId: query.provider_id ?? query.providerId,
      clientId: query.client_id ?? query.clientId,
      serviceId: query.service_id ?? query.serviceId,
      statuses: query.status,
      limit: query.limit,
      cursor: query.cursor,
    },
    now,
  );
  return toListResult(page);
});
