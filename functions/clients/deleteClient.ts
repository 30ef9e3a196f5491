import { httpHandler } from '../../lib/http/handler';
import { removeClient } from '../../lib/use-cases/clients';

export const handler = httpHandler('deleteClient', async ({ caller, params, ifMatch, now }) => ({
  data: await removeClient(caller.medspaId, params.id, { ifMatch, now }),
}));
