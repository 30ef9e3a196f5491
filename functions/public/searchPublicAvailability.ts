import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { publicAvailability } from '../../lib/use-cases/public-catalog';

export const handler = httpHandler(publicBookingRoutes.searchPublicAvailability, async ({ query, caller, now }) => ({
  data: await publicAvailability(caller.medspaId, query, now),
}));
