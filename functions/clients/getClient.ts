import { httpHandler } from '../../lib/http/handler';
import { getClient } from '../../lib/use-cases/clients';

export const handler = httpHandler('getClient', async ({ caller, params, now }) => ({
  data: await getClient(caller.medspaId, params.id, now),
}));
