import { httpHandler } from '../../lib/http/handler';
import { readResource } from '../../lib/use-cases/resources';

export const handler = httpHandler('getRoom', async ({ caller, params }) => ({
  data: await readResource('room', caller.medspaId, params.id),
}));
