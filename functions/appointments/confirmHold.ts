import { httpHandler } from '../../lib/http/handler';
import * as holdRoutes from '../../lib/routes/holds';
import { confirmHold } from '../../lib/use-cases/holds';

export const handler = httpHandler(holdRoutes.confirmHold, async ({ params, body, caller, now, writes }) => ({
  data: await confirmHold(caller.medspaId, params.id, body, now, writes),
}));
