import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { createPublicHold } from '../../lib/use-cases/public-holds';

export const handler = httpHandler(holdRoutes.createPublicHold, async ({ body, caller, clientIp, now, writes }) => ({
  data: await createPublicHold(caller.medspaId, body, clientIp ?? '', now, writes),
}));
