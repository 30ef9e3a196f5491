import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { assignServiceProvider } from '../../lib/use-cases/services';

export const handler = httpHandler(
  resourceRoutes.assignServiceProvider,
  async ({ caller, params, body, now, writes }) => ({
    data: await assignServiceProvider(caller.medspaId, params.id, body.provider_id, now, writes),
  }),
);
