import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { createCredential } from '../../lib/use-cases/auth';

export const handler = httpHandler(authRoutes.createCredential, async ({ body, caller, now, writes }) => ({
  data: await createCredential(caller.medspaId, body, now, writes),
}));
