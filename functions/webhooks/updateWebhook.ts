import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { changeWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.updateWebhook, async ({ caller, params, body, ifMatch, now }) => ({
  data: await changeWebhook(caller.medspaId, params.id, body, { ifMatch, now }),
}));
