import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { createWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.createWebhook, async ({ caller, body, now, writes }) => ({
  data: await createWebhook(caller.medspaId, body, now, writes),
}));
