import { httpHandler } from '../../lib/http/handler';
import { listWebhookDeliveries } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('listWebhookDeliveries', async ({ caller, params, query }) => listWebhookDeliveries(caller.medspaId, params.id, query));
