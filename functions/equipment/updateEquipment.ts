import { httpHandler } from '../../lib/http/handler';
import { changeFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler('updateEquipment', async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeFacility('equipment', caller.medspaId, params.id, body, { ifMatch, now }),
}));
