import { httpHandler } from '../../lib/http/handler';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('deleteEquipment', async ({ caller, params, ifMatch, now }) => ({
  status: 200,
  data: await removeResource('equipment', caller.medspaId, params.id, { ifMatch, now }),
}));
