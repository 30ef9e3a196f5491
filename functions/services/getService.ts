import { httpHandler } from '../../lib/http/handler';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('getService', async ({ caller, params }) => ({
  data: await readResource('service', caller.medspaId, params.id),
}));
