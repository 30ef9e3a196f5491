import { httpHandler } from '../../lib/http/handler';
import * as webhookRoutes from '../../lib/routes/webhooks';
import { listWebhooks } from '../../lib/use-cases/webhooks';

export const handler = httpHandler(webhookRoutes.listWebhooks, async ({ caller, query }) =>
  listWebhooks(caller.medspaId, query),
);
