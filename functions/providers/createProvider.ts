import { httpHandler } from '../../lib/http/handler';
import * as resourceRoutes from '../../lib/routes/resources';
import { createProvider } from '../../lib/use-cases/resources';

export const handler = httpHandler(resourceRoutes.createProvider, async ({ caller, body, now, writes }) => ({
  data: await createProvider(caller.medspaId, body, now, writes),
}));
