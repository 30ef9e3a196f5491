import { httpHandler } from '../../lib/http/handler';
import * as treatmentRecordRoutes from '../../lib/routes/treatment-records';
import { listTreatmentRecordVersions } from '../../lib/use-cases/treatment-records';

export const handler = httpHandler(
  treatmentRecordRoutes.listTreatmentRecordVersions,
  async ({ params, caller, query }) => listTreatmentRecordVersions(caller.medspaId, params.id, query),
);
