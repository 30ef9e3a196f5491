import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { listPlans } from '../../lib/use-cases/plans';

export const handler = httpHandler(planRoutes.listPlans, async ({ caller, query }) =>
  listPlans(caller.medspaId, query),
);
