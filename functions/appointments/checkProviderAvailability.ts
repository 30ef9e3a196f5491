import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { providerAvailability } from '../../lib/use-cases/appointment-queries';

export const handler = httpHandler(appointmentRoutes.checkProviderAvailability, async ({ params, query, caller }) => ({
  data: await providerAvailability(
    caller.medspaId,
    { providerId: params.id, roomId: query.room_id, equipmentId: query.equipment_id },
    { start: query.start, end: query.end },
    query.service_id,
  ),
}));
