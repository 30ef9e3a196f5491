import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { unassignServiceProvider } from '../../lib/use-cases/services';

export const handler = httpHandler(
  resourceRoutes.unassignServiceProvider,
  async ({ caller, params, ifMatch, now }) => ({
    data: await unassignServiceProvider(caller.medspaId, params.id, params.provider_id, { ifMatch, now }),
  }),
);
