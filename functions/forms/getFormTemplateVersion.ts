import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { readFormTemplateVersion } from '../../lib/use-cases/form-templates';

export const handler = httpHandler(formRoutes.getFormTemplateVersion, async ({ caller, params }) => ({
  data: await readFormTemplateVersion(caller.medspaId, params.id, params.n),
}));
