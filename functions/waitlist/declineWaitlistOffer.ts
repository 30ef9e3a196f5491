import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { declineOffer } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(waitlistRoutes.declineWaitlistOffer, async ({ params, caller, now, writes }) => ({
  data: await declineOffer(caller.medspaId, params.id, now, writes),
}));
