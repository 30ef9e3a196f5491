import { httpHandler } from '../../lib/http/handler';
import * as clientRoutes from '../../lib/routes/clients';
import { setContactConsent } from '../../lib/use-cases/contact-consents';

export const handler = httpHandler(clientRoutes.setContactConsent, async ({ caller, params, body, now, writes }) => ({
  data: await setContactConsent(
    caller.medspaId,
    params.id,
    { channel: params.channel, purpose: params.purpose },
    body,
    now,
    writes,
  ),
}));
