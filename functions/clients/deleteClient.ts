import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { removeClient } from '../../lib/use-cases/clients';

export const handler = httpHandler(clientRoutes.deleteClient, async ({ caller, params, ifMatch, now, writes }) => ({
  data: await removeClient(caller.medspaId, params.id, { ifMatch, now, writes }),
}));
