import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { listExposures } from '../../lib/use-cases/lot-recall';

export const handler = httpHandler(productRoutes.listLotExposures, async ({ caller, params, query }) =>
  listExposures(caller.medspaId, params.id, query),
);
