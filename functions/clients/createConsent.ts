import { httpHandler } from '../../lib/http/handler';
import { createConsent } from '../../lib/use-cases/consents';

export const handler = httpHandler('createConsent', async ({ caller, params, body, now }) => ({
  data: await createConsent(caller.medspaId, params.id, body, now),
}));
