import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { listFormSubmissions } from '../../lib/use-cases/form-submissions';

export const handler = httpHandler(formRoutes.listFormSubmissions, async ({ caller, params, query }) =>
  listFormSubmissions(caller.medspaId, params.id, query),
);
