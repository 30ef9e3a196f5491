import { httpHandler } from '../../lib/http/handler';
import { removeClient } from '../../lib/use-cases/clients';

export const handler = httpHandler('deleteClient', async ({ caller, params, ifMatch, now }) => ({
  status: 200,
  data: await removeClient(caller.medspaId, params.id, { ifMatch, now }),
}));
