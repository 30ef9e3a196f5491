import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { revoke } from '../../lib/use-cases/auth';

export const handler = httpHandler(authRoutes.revokeCredential, async ({ params, caller, now, writes }) => ({
  data: await revoke(caller.medspaId, params.client_id, now, writes),
}));
