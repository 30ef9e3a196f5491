import type { Caller } from '../../lib/auth/tokens';
import { httpHandler } from '../../lib/http/handler';
import { publicBookingRoutes } from '../../lib/routes/public-booking';
import { publicServices } from '../../lib/use-cases/public-catalog';

export const handler = httpHandler(publicBookingRoutes.listPublicServices, async ({ caller }) => ({ data: await publicServices((caller as Caller | null)!.medspaId) }));
