import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { getOnlineBooking } from '../../lib/use-cases/public-booking';

export const handler = httpHandler(publicBookingRoutes.getPublicBooking, async ({ params, headers, caller, now }) => ({
  data: await getOnlineBooking(caller.medspaId, params.appointment_id, headers['x-booking-token'], now),
}));
