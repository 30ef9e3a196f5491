import { httpHandler } from '../../lib/http/handler';
import * as waitlistRoutes from '../../lib/routes/waitlist';
import { createWaitlistEntry } from '../../lib/use-cases/waitlist';

export const handler = httpHandler(waitlistRoutes.createWaitlistEntry, async ({ body, caller, now, writes }) => ({
  data: await createWaitlistEntry(caller.medspaId, body, now, writes),
}));
