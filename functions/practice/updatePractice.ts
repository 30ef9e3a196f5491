import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { changePractice } from '../../lib/use-cases/practice';

export const handler = httpHandler(authRoutes.updatePractice, async ({ caller, body, ifMatch, now }) => ({
  data: await changePractice(caller.medspaId, body, { ifMatch, now }),
}));
