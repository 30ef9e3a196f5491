import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { readFormSubmission } from '../../lib/use-cases/form-submissions';

export const handler = httpHandler(formRoutes.getFormSubmission, async ({ caller, params }) => ({
  data: await readFormSubmission(caller.medspaId, params.id),
}));
