import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { createClient } from '../../lib/use-cases/clients';

export const handler = httpHandler(clientRoutes.createClient, async ({ caller, body, now, writes }) => ({
  data: await createClient(caller.medspaId, body, now, writes),
}));
