import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { createFormTemplate } from '../../lib/use-cases/form-templates';

export const handler = httpHandler(formRoutes.createFormTemplate, async ({ caller, body, now, writes }) => ({
  data: await createFormTemplate(caller.medspaId, body, now, writes),
}));
