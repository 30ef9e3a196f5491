import { httpHandler } from '../../lib/http/handler';
import { listWebhooks } from '../../lib/use-cases/webhooks';

export const handler = httpHandler('listWebhooks', async ({ caller, query }) => listWebhooks(caller.medspaId, query));
