import { httpHandler } from '../../lib/http/handler';
import { createWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('createWebhook', async ({ caller, body, now }) => ({
  data: await createWebhook(caller.medspaId, body, now),
}));
