import { httpHandler } from '../../lib/http/handler';
import { createClient } from '../../lib/use-cases/clients';

export const handler = httpHandler('createClient', async ({ caller, body, now }) => ({
  data: await createClient(caller.medspaId, body, now),
}));
