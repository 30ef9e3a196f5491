import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { readPlan } from '../../lib/use-cases/plans';

export const handler = httpHandler(planRoutes.getPlan, async ({ caller, params }) => ({
  data: await readPlan(caller.medspaId, params.id),
}));
