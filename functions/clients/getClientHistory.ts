import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { clientHistory } from '../../lib/use-cases/clients';

export const handler = httpHandler(clientRoutes.getClientHistory, async ({ caller, params, query }) =>
  clientHistory(caller.medspaId, params.id, query),
);
