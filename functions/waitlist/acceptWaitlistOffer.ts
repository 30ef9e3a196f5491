import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { acceptOffer } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(waitlistRoutes.acceptWaitlistOffer, async ({ params, caller, now, writes }) => ({
  data: await acceptOffer(caller.medspaId, params.id, now, writes),
}));
