import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { readWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.getWebhook, async ({ caller, params }) => ({
  data: await readWebhook(caller.medspaId, params.id),
}));
