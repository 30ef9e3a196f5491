import { httpHandler } from '../../lib/http/handler';
import { readProduct } from '../../lib/use-cases/products';

export const handler = httpHandler('getProduct', async ({ caller, params }) => ({
  data: await readProduct(caller.medspaId, params.id),
}));
