import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { removeWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.deleteWebhook, async ({ caller, params, ifMatch, now }) => ({
  data: await removeWebhook(caller.medspaId, params.id, { ifMatch, now }),
}));
