import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { createPublishableKey } from '../../lib/use-cases/publishable-keys';

export const handler = httpHandler(authRoutes.createPublishableKey, async ({ body, caller, now, writes }) => ({
  data: await createPublishableKey(caller.medspaId, body, now, writes),
}));
