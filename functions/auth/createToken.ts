import { httpHandler } from '../../lib/http/handler';
import { exchangeToken } from '../../lib/use-cases/auth';

export const handler = httpHandler('createToken', async ({ body, headers, now }) => ({
  data: await exchangeToken(body ?? {}, headers.authorization, now),
}));
