import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { listWebhookDeliveries } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.listWebhookDeliveries, async ({ caller, params, query }) =>
  listWebhookDeliveries(caller.medspaId, params.id, query),
);
