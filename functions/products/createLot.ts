import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { createLot } from '../../lib/use-cases/lots';

export const handler = httpHandler(productRoutes.createLot, async ({ caller, params, body, now, writes }) => ({
  data: await createLot(caller.medspaId, params.id, body, now, writes),
}));
