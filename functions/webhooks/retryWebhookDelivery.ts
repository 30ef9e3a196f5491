import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { retryWebhookDelivery } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.retryWebhookDelivery, async ({ caller, params, now, writes }) => ({
  data: await retryWebhookDelivery(caller.medspaId, params.id, params.delivery_id, now, writes),
}));
