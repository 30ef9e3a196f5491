import { httpHandler } from '../../lib/http/handler';
import { createProduct } from '../../lib/use-cases/products';

export const handler = httpHandler('createProduct', async ({ caller, body, now }) => ({
  data: await createProduct(caller.medspaId, body, now),
}));
