import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { searchAvailability } from '../../lib/use-cases/availability-search';

export const handler = httpHandler(appointmentRoutes.searchAvailability, async ({ query, caller, now }) => ({
  data: await searchAvailability(
    caller.medspaId,
    {
      serviceId: query.service_id,
      from: query.from,
      to: query.to,
      providerIds: query.provider_id,
      durationMinutes: query.duration_minutes,
      intervalMinutes: query.interval_minutes,
      roomId: query.room_id,
      equipmentId: query.equipment_id,
      timeZone: query.time_zone,
    },
    now,
  ),
}));
