import { httpHandler } from '../../lib/http/handler';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('getClient', async ({ caller, params }) => ({
  data: await readResource('client', caller.medspaId, params.id),
}));
