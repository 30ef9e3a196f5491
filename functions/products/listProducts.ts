import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { listProducts } from '../../lib/use-cases/products';

export const handler = httpHandler(productRoutes.listProducts, async ({ caller, query }) =>
  listProducts(caller.medspaId, query),
);
