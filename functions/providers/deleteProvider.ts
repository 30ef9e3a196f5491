import { httpHandler } from '../../lib/http/handler';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('deleteProvider', async ({ caller, params, ifMatch, now }) => ({
  status: 200,
  data: await removeResource('provider', caller.medspaId, params.id, { ifMatch, now }),
}));
