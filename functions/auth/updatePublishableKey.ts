import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { changePublishableKey } from '../../lib/use-cases/publishable-keys';

export const handler = httpHandler(authRoutes.updatePublishableKey, async ({ params, body, caller, ifMatch, now }) => ({
  data: await changePublishableKey(caller.medspaId, params.id, body, { ifMatch, now }),
}));
