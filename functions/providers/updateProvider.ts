import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { changeProvider } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.updateProvider, async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeProvider(caller.medspaId, params.id, body, { ifMatch, now }),
}));
