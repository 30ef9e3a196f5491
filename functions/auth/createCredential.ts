import { httpHandler } from '../../lib/http/handler';
import { createCredential } from '../../lib/use-cases/auth';

export const handler = httpHandler('createCredential', async ({ body, caller, now }) => ({
  data: await createCredential(caller.medspaId, body, now),
}));
