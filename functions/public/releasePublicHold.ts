import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { releasePublicHold } from '../../lib/use-cases/public-holds';

export const handler = httpHandler(holdRoutes.releasePublicHold, async ({ params, headers, caller, now, writes }) => ({
  data: await releasePublicHold(caller.medspaId, params.hold_id, headers['x-hold-token'], { now, writes }),
}));
