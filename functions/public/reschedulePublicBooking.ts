import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { rescheduleOnlineBooking } from '../../lib/use-cases/public-booking';

export const handler = httpHandler(
  publicBookingRoutes.reschedulePublicBooking,
  async ({ params, body, headers, caller, now, writes }) => ({
    data: await rescheduleOnlineBooking(caller.medspaId, params.appointment_id, headers['x-booking-token'], {
      now,
      writes,
      scheduledAt: body.scheduled_at,
    }),
  }),
);
