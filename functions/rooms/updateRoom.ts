import { httpHandler } from '../../lib/http/handler';
import { changeFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler('updateRoom', async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeFacility('room', caller.medspaId, params.id, body, { ifMatch, now }),
}));
