import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { createFacility } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.createRoom, async ({ caller, body, now, writes }) => ({
  data: await createFacility('room', caller.medspaId, body, now, writes),
}));
