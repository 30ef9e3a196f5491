import { tokenPublicJwk } from '../../lib/auth/token-key';
import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';

export const handler = httpHandler(authRoutes.getJwks, async () => ({
  data: { keys: [await tokenPublicJwk()] },
  headers: { 'cache-control': 'public, max-age=300' },
}));
