import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.deleteProvider, async ({ caller, params, ifMatch, now, writes }) => ({
  data: await removeResource('provider', caller.medspaId, params.id, { ifMatch, now, writes }),
}));
