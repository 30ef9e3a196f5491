import { httpHandler } from '../../lib/http/handler';
import { recordTreatment } from '../../lib/use-cases/appointment-status';

export const handler = httpHandler('recordTreatment', async ({ params, body, caller, now }) => ({
  data: await recordTreatment(caller.medspaId, params.id, body, { now, recordedBy: caller.clientId }),
}));
