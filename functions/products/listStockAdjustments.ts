import { httpHandler } from '../../lib/http/handler';
import { listStockAdjustments } from '../../lib/use-cases/products';

export const handler = httpHandler('listStockAdjustments', async ({ caller, params, query }) => listStockAdjustments(caller.medspaId, params.id, query));
