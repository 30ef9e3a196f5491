import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { publishableKey } from '../../lib/use-cases/publishable-keys';

export const handler = httpHandler(authRoutes.getPublishableKey, async ({ params, caller }) => ({
  data: await publishableKey(caller.medspaId, params.id),
}));
