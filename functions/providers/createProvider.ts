import { httpHandler } from '../../lib/http/handler';
import { createProvider } from '../../lib/use-cases/resources';

export const handler = httpHandler('createProvider', async ({ caller, body, now }) => ({
  data: await createProvider(caller.medspaId, body, now),
}));
