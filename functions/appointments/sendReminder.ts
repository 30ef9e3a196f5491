import { httpHandler } from '../../lib/http/handler';
import { requestReminder } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('sendReminder', async ({ params, caller, now }) => ({
  data: await requestReminder(caller.medspaId, params.id, { now, requestedBy: caller.clientId }),
}));
