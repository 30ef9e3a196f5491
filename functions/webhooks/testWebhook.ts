import { httpHandler } from '../../lib/http/handler';
import { testWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('testWebhook', async ({ caller, params, now }) => ({
  data: await testWebhook(caller.medspaId, params.id, now),
}));
