import { httpHandler } from '../../lib/http/handler';
import { listProducts } from '../../lib/use-cases/products';

export const handler = httpHandler('listProducts', async ({ caller, query }) => listProducts(caller.medspaId, query));
