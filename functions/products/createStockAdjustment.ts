import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { createStockAdjustment } from '../../lib/use-cases/products';

export const handler = httpHandler(
  productRoutes.createStockAdjustment,
  async ({ caller, params, body, now, writes }) => ({
    data: await createStockAdjustment(caller, params.id, body, now, writes),
  }),
);
