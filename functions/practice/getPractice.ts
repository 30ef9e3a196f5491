import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { readPractice } from '../../lib/use-cases/practice';

export const handler = httpHandler(authRoutes.getPractice, async ({ caller }) => ({
  data: await readPractice(caller.medspaId),
}));
