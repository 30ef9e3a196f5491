import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.getProvider, async ({ caller, params }) => ({
  data: await readResource('provider', caller.medspaId, params.id),
}));
