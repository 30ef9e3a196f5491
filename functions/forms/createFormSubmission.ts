import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { submitForm } from '../../lib/use-cases/form-submissions';

export const handler = httpHandler(formRoutes.createFormSubmission, async ({ caller, params, body, now, writes }) => ({
  data: await submitForm(caller.medspaId, params.id, body, now, { source: 'staff' }, writes),
}));
