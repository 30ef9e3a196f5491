import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { cancelWaitlistEntry } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(
  waitlistRoutes.deleteWaitlistEntry,
  async ({ params, caller, ifMatch, now, writes }) => ({
    data: await cancelWaitlistEntry(caller.medspaId, params.id, { ifMatch, now, writes }),
  }),
);
