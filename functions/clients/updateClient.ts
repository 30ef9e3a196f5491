import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { changeClient } from '../../lib/use-cases/clients';

export const handler = httpHandler(
  clientRoutes.updateClient,
  async ({ caller, params, body, ifMatch, now, writes }) => ({
    data: await changeClient(caller.medspaId, params.id, body, { ifMatch, now, writes }),
  }),
);
