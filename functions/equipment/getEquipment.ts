import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.getEquipment, async ({ caller, params }) => ({
  data: await readResource('equipment', caller.medspaId, params.id),
}));
