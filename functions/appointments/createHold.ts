import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { createHold } from '../../lib/use-cases/holds';

export const handler = httpHandler(holdRoutes.createHold, async ({ body, caller, now, writes }) => ({
  data: await createHold(caller.medspaId, body, now, writes),
}));
