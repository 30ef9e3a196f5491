import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { showWaitlistEntry } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(waitlistRoutes.getWaitlistEntry, async ({ params, caller, now }) => ({
  data: await showWaitlistEntry(caller.medspaId, params.id, now),
}));
