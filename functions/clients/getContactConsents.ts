import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { getContactConsents } from '../../lib/use-cases/contact-consents';

export const handler = httpHandler(clientRoutes.getContactConsents, async ({ caller, params }) => ({
  data: await getContactConsents(caller.medspaId, params.id),
}));
