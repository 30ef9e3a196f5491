import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { showHold } from '../../lib/use-cases/holds';

export const handler = httpHandler(holdRoutes.getHold, async ({ params, caller, now }) => ({
  data: await showHold(caller.medspaId, params.id, now),
}));
