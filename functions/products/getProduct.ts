import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { readProduct } from '../../lib/use-cases/products';

export const handler = httpHandler(productRoutes.getProduct, async ({ caller, params }) => ({
  data: await readProduct(caller.medspaId, params.id),
}));
