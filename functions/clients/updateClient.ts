import { httpHandler } from '../../lib/http/handler';
import { changeClient } from '../../lib/use-cases/clients';

export const handler = httpHandler('updateClient', async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeClient(caller.medspaId, params.id, body, { ifMatch, now }),
}));
