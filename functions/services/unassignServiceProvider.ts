import { httpHandler } from '../../lib/http/handler';
import { unassignServiceProvider } from '../../lib/use-cases/resources';

export const handler = httpHandler('unassignServiceProvider', async ({ caller, params, now }) => ({
  status: 200,
  data: await unassignServiceProvider(caller.medspaId, params.id, params.provider_id, now),
}));
