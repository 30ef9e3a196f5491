import { httpHandler } from '../../lib/http/handler';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('getProvider', async ({ caller, params }) => ({
  data: await readResource('provider', caller.medspaId, params.id),
}));
