import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { listServices } from '../../lib/use-cases/services';

export const handler = httpHandler(resourceRoutes.listServices, async ({ caller, query }) =>
  listServices(caller.medspaId, query),
);
