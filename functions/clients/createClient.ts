import { httpHandler } from '../../lib/http/handler';
import { createClient } from '../../lib/use-cases/resources';

export const handler = httpHandler('createClient', async ({ caller, body, now }) => ({
  data: await createClient(caller.medspaId, body, now),
}));
