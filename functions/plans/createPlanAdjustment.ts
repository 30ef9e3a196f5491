import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { adjustBalance } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.createPlanAdjustment, async ({ caller, params, body, now, writes }) => ({
  data: await adjustBalance(caller, params.id, body, now, writes),
}));
