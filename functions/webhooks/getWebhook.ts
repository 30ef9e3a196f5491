import { httpHandler } from '../../lib/http/handler';
import { readWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('getWebhook', async ({ caller, params }) => ({
  data: await readWebhook(caller.medspaId, params.id),
}));
