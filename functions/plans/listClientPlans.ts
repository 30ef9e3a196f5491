import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { listClientPlans } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.listClientPlans, async ({ caller, params, query }) =>
  listClientPlans(caller.medspaId, params.id, query),
);
