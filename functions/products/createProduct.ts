import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { createProduct } from '../../lib/use-cases/products';

export const handler = httpHandler(productRoutes.createProduct, async ({ caller, body, now, writes }) => ({
  data: await createProduct(caller.medspaId, body, now, writes),
}));
