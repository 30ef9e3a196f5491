import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { changeProduct } from '../../lib/use-cases/products';

export const handler = httpHandler(
  productRoutes.updateProduct,
  async ({ caller, params, body, ifMatch, now, writes }) => ({
    data: await changeProduct(caller.medspaId, params.id, body, { ifMatch, now, writes }),
  }),
);
