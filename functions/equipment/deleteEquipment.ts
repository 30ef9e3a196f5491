import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.deleteEquipment, async ({ caller, params, ifMatch, now }) => ({
  data: await removeResource('equipment', caller.medspaId, params.id, { ifMatch, now }),
}));
