import { httpHandler } from '../../lib/http/handler';
import { revoke } from '../../lib/use-cases/auth';

export const handler = httpHandler('revokeCredential', async ({ params, caller, now }) => ({
  data: await revoke(caller.medspaId, params.client_id, now),
}));
