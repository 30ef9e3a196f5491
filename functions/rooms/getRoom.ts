import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.getRoom, async ({ caller, params }) => ({
  data: await readResource('room', caller.medspaId, params.id),
}));
