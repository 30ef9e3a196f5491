import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { bookOnline } from '../../lib/use-cases/public-booking';
import { bookHeldOnline } from '../../lib/use-cases/public-holds';

export const handler = httpHandler(
  publicBookingRoutes.createPublicBooking,
  async ({ body, headers, caller, now, writes }) => ({
    data:
      'hold_id' in body
        ? await bookHeldOnline(caller.medspaId, body, headers['x-hold-token'], now, writes)
        : await bookOnline(caller.medspaId, body, now, writes),
  }),
);
