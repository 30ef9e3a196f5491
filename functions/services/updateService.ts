import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { changeService } from '../../lib/use-cases/services';

export const handler = httpHandler(
  resourceRoutes.updateService,
  async ({ caller, params, body, ifMatch, now, writes }) => ({
    data: await changeService(caller.medspaId, params.id, body, { ifMatch, now, writes }),
  }),
);
