import { httpHandler } from '../../lib/http/handler';
import * as treatmentRecordRoutes from '../../lib/routes/treatment-records';
import { amendTreatmentRecord } from '../../lib/use-cases/treatment-records';

export const handler = httpHandler(
  treatmentRecordRoutes.amendTreatmentRecord,
  async ({ params, body, caller, now, writes, ifMatch }) => ({
    data: await amendTreatmentRecord(caller.medspaId, params.id, body, { now, by: caller.clientId, writes, ifMatch }),
  }),
);
