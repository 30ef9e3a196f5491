import { httpHandler } from '../../lib/http/handler';
import { changeProduct } from '../../lib/use-cases/products';

export const handler = httpHandler('updateProduct', async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeProduct(caller.medspaId, params.id, body, { ifMatch, now }),
}));
