import { httpHandler } from '../../lib/http/handler';
import { rotateWebhookSecret } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('rotateWebhookSecret', async ({ caller, params, now }) => ({
  data: await rotateWebhookSecret(caller.medspaId, params.id, now),
}));
