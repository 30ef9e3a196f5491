import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { rotateWebhookSecret } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.rotateWebhookSecret, async ({ caller, params, now, writes }) => ({
  data: await rotateWebhookSecret(caller.medspaId, params.id, now, writes),
}));
