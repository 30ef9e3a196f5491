import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { createConsent } from '../../lib/use-cases/consents';

export const handler = httpHandler(clientRoutes.createConsent, async ({ caller, params, body, now, writes }) => ({
  data: await createConsent(caller.medspaId, params.id, body, now, writes),
}));
