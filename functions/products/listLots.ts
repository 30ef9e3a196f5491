import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { listLots } from '../../lib/use-cases/lots';

export const handler = httpHandler(productRoutes.listLots, async ({ caller, params, query }) =>
  listLots(caller.medspaId, params.id, query),
);
