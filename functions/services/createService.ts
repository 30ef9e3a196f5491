import { httpHandler } from '../../lib/http/handler';
import { createService } from '../../lib/use-cases/resources';

export const handler = httpHandler('createService', async ({ caller, body, now }) => ({
  data: await createService(caller.medspaId, body, now),
}));
