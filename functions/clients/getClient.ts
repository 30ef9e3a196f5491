import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { getClient } from '../../lib/use-cases/clients';

export const handler = httpHandler(clientRoutes.getClient, async ({ caller, params, now }) => ({
  data: await getClient(caller.medspaId, params.id, now),
}));
