import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { cancelOnlineBooking } from '../../lib/use-cases/public-booking';

export const handler = httpHandler(
  publicBookingRoutes.cancelPublicBooking,
  async ({ params, body, headers, caller, now, writes }) => ({
    data: await cancelOnlineBooking(caller.medspaId, params.appointment_id, headers['x-booking-token'], {
      now,
      writes,
      reason: body?.reason,
    }),
  }),
);
