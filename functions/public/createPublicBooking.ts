import type { Caller } from '../../lib/auth/tokens';
import { httpHandler } from '../../lib/http/handler';
import { publicBookingRoutes } from '../../lib/routes/public-booking';
import { bookOnline } from '../../lib/use-cases/public-booking';

export const handler = httpHandler(publicBookingRoutes.createPublicBooking, async ({ body, caller, now, writes }) => ({
  data: await bookOnline((caller as Caller | null)!.medspaId, body, now, writes),
}));
