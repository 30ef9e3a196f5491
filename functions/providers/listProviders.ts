import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { listResources } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.listProviders, async ({ caller, query }) =>
  listResources('provider', caller.medspaId, query),
);
