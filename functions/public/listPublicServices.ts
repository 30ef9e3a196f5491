import { httpHandler } from '../../lib/http/handler';
import * as publicBookingRoutes from '../../lib/routes/public-booking';
import { publicServices } from '../../lib/use-cases/public-catalog';

export const handler = httpHandler(publicBookingRoutes.listPublicServices, async ({ practice }) => ({
  data: await publicServices(practice),
}));
