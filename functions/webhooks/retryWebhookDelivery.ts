import { httpHandler } from '../../lib/http/handler';
import { retryWebhookDelivery } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('retryWebhookDelivery', async ({ caller, params, now }) => ({
  data: await retryWebhookDelivery(caller.medspaId, params.id, params.delivery_id, now),
}));
