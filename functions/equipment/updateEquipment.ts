import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { changeFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.updateEquipment, async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeFacility('equipment', caller.medspaId, params.id, body, { ifMatch, now }),
}));
