import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { listFormTemplates } from '../../lib/use-cases/form-templates';

export const handler = httpHandler(formRoutes.listFormTemplates, async ({ caller, query }) =>
  listFormTemplates(caller.medspaId, query),
);
