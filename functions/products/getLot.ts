import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { readLot } from '../../lib/use-cases/lots';

export const handler = httpHandler(productRoutes.getLot, async ({ caller, params }) => ({
  data: await readLot(caller.medspaId, params.id),
}));
