import { httpHandler } from '../../lib/http/handler';
import { changeService } from '../../lib/use-cases/resources';

export const handler = httpHandler('updateService', async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeService(caller.medspaId, params.id, body, { ifMatch, now }),
}));
