import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.listRooms, async ({ caller, query }) =>
  listResources('room', caller.medspaId, query),
);
