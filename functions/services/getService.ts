import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.getService, async ({ caller, params }) => ({
  data: await readResource('service', caller.medspaId, params.id),
}));
