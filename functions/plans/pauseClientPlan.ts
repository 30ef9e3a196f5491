import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { changePlanStatus } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.pauseClientPlan, async ({ caller, params, now, writes }) => ({
  data: await changePlanStatus(caller.medspaId, params.id, 'pause', {}, now, writes),
}));
