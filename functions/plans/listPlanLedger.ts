import { httpHandler } from '../../lib/http/handler';
import * as planRoutes from '../../lib/routes/plans';
import { listLedger } from '../../lib/use-cases/client-plans';

export const handler = httpHandler(planRoutes.listPlanLedger, async ({ caller, params, query }) =>
  listLedger(caller.medspaId, params.id, query),
);
