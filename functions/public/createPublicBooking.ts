import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { bookOnline } from '../../lib/use-cases/public-booking';

export const handler = httpHandler(publicBookingRoutes.createPublicBooking, async ({ body, caller, now, writes }) => ({
  data: await bookOnline(caller.medspaId, body, now, writes),
}));
