import { httpHandler } from '../../lib/http/handler';
import * as productRoutes from '../../lib/routes/products';
import { recallLot } from '../../lib/use-cases/lot-recall';

export const handler = httpHandler(productRoutes.recallLot, async ({ caller, params, body, now, writes }) => ({
  data: await recallLot(caller.medspaId, params.id, body, now, writes),
}));
