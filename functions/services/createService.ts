import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { createService } from '../../lib/use-cases/services';

export const handler = httpHandler(resourceRoutes.createService, async ({ caller, body, now, writes }) => ({
  data: await createService(caller.medspaId, body, now, writes),
}));
