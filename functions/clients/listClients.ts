import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { listClients } from '../../lib/use-cases/clients';

export const handler = httpHandler(clientRoutes.listClients, async ({ caller, query, now }) =>
  listClients(caller.medspaId, query, now),
);
