import { httpHandler } from '../../lib/http/handler';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('deleteEquipment', async ({ caller, params, ifMatch, now }) => ({
  data: await removeResource('equipment', caller.medspaId, params.id, { ifMatch, now }),
}));
