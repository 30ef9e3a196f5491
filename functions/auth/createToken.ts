import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { exchangeToken } from '../../lib/use-cases/auth';

export const handler = httpHandler(authRoutes.createToken, async ({ body, headers, now }) => ({
  data: await exchangeToken(body ?? {}, headers.authorization, now),
}));
