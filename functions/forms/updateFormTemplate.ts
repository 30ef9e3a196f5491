import { httpHandler } from '../../lib/http/handler';
import * as formRoutes from '../../lib/routes/forms';
import { changeFormTemplate } from '../../lib/use-cases/form-templates';

export const handler = httpHandler(
  formRoutes.updateFormTemplate,
  async ({ caller, params, body, ifMatch, now, writes }) => ({
    data: await changeFormTemplate(caller.medspaId, params.id, body, { ifMatch, now, writes }),
  }),
);
