import { httpHandler } from '../../lib/http/handler';
import * as appointmentRoutes from '../../lib/routes/appointments';
import { providerSlots } from '../../lib/use-cases/appointment-queries';

export const handler = httpHandler(appointmentRoutes.getAvailableSlots, async ({ params, query, caller, now }) => ({
  data: await providerSlots(
    caller.medspaId,
    { providerId: params.id, roomId: query.room_id, equipmentId: query.equipment_id },
    {
      date: query.date,
      durationMinutes: query.duration_minutes ?? query.durationMinutes,
      intervalMinutes: query.interval_minutes ?? query.intervalMinutes ?? 15,
      serviceId: query.service_id,
    },
    now,
  ),
}));
