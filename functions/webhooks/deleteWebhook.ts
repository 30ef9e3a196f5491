import { httpHandler } from '../../lib/http/handler';
import { removeWebhook } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('deleteWebhook', async ({ caller, params, ifMatch, now }) => ({
  data: await removeWebhook(caller.medspaId, params.id, { ifMatch, now }),
}));
