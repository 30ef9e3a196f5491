import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { sellPlan } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.sellPlan, async ({ caller, params, body, now, writes }) => ({
  data: await sellPlan(caller.medspaId, params.id, body, now, writes),
}));
