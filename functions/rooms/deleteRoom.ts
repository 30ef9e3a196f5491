import { httpHandler } from '../../lib/http/handler';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('deleteRoom', async ({ caller, params, ifMatch, now }) => ({
  data: await removeResource('room', caller.medspaId, params.id, { ifMatch, now }),
}));
