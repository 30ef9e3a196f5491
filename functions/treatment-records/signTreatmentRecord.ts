import { httpHandler } from '../../lib/http/handler';
import * as treatmentRecordRoutes from '../../lib/routes/treatment-records';
import { signTreatmentRecord } from '../../lib/use-cases/treatment-records';

export const handler = httpHandler(
  treatmentRecordRoutes.signTreatmentRecord,
  async ({ params, caller, now, writes, ifMatch }) => ({
    data: await signTreatmentRecord(caller.medspaId, params.id, { now, by: caller.clientId, writes, ifMatch }),
  }),
);
