import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { readFormTemplate } from '../../lib/use-cases/form-templates';

export const handler = httpHandler(formRoutes.getFormTemplate, async ({ caller, params }) => ({
  data: await readFormTemplate(caller.medspaId, params.id),
}));
