import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { releaseHold } from '../../lib/use-cases/holds';

export const handler = httpHandler(holdRoutes.releaseHold, async ({ params, caller, now, writes }) => ({
  data: await releaseHold(caller.medspaId, params.id, { now, writes }),
}));
