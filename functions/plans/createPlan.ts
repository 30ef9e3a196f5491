import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { createPlan } from '../../lib/use-cases/plans';

export const handler = httpHandler(planRoutes.createPlan, async ({ caller, body, now, writes }) => ({
  data: await createPlan(caller.medspaId, body, now, writes),
}));
