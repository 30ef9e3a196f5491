import { httpHandler } from '../../lib/http/handler';
import { changeStatus } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('markNoShow', async ({ params, caller, ifMatch, now }) => ({
  data: await changeStatus(caller.medspaId, params.id, 'no_show', { ifMatch, now }),
}));
