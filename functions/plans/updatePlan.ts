import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { changePlan } from '../../lib/use-cases/plans';

export const handler = httpHandler(planRoutes.updatePlan, async ({ caller, params, body, ifMatch, now }) => ({
  data: await changePlan(caller.medspaId, params.id, body, { ifMatch, now }),
}));
