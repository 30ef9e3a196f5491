import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { listWaitlist } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(waitlistRoutes.listWaitlist, async ({ caller, query, now }) =>
  listWaitlist(caller.medspaId, query, now),
);
