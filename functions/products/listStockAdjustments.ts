import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { listStockAdjustments } from '../../lib/use-cases/products';

export const handler = httpHandler(productRoutes.listStockAdjustments, async ({ caller, params, query }) =>
  listStockAdjustments(caller.medspaId, params.id, query),
);
