import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { getClientPlan } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.getClientPlan, async ({ caller, params }) => ({
  data: await getClientPlan(caller.medspaId, params.id),
}));
