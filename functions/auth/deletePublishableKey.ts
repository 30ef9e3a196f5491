import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { removePublishableKey } from '../../lib/use-cases/publishable-keys';

export const handler = httpHandler(authRoutes.deletePublishableKey, async ({ params, caller }) => ({
  data: await removePublishableKey(caller.medspaId, params.id),
}));
