import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { removeResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.deleteRoom, async ({ caller, params, ifMatch, now }) => ({
  data: await removeResource('room', caller.medspaId, params.id, { ifMatch, now }),
}));
