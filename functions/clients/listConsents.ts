import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { listConsents } from '../../lib/use-cases/consents';

export const handler = httpHandler(clientRoutes.listConsents, async ({ caller, params, query }) =>
  listConsents(caller.medspaId, params.id, query),
);
