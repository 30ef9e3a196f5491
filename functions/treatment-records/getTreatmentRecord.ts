import { httpHandler } from '../../lib/http/handler';
import * as treatmentRecordRoutes from '../../lib/routes/treatment-records';
import { readTreatmentRecord } from '../../lib/use-cases/treatment-records';

export const handler = httpHandler(treatmentRecordRoutes.getTreatmentRecord, async ({ params, caller }) => ({
  data: await readTreatmentRecord(caller.medspaId, params.id),
}));
