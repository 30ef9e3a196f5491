import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { testWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.testWebhook, async ({ caller, params, now, writes }) => ({
  data: await testWebhook(caller.medspaId, params.id, now, writes),
}));
