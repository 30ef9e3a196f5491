import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.listEquipment, async ({ caller, query }) =>
  listResources('equipment', caller.medspaId, query),
);
