import { httpHandler } from '../../lib/http/handler';
import { createStockAdjustment } from '../../lib/use-cases/products';

export const handler = httpHandler('createStockAdjustment', async ({ caller, params, body, now }) => ({
  data: await createStockAdjustment(caller, params.id, body, now),
}));
