import { tokenPublicJwk } from '../../lib/auth/token-key';
import { tablelessHandler } from '../../lib/http/tableless-handler';
import * as authRoutes from '../../lib/routes/auth';

export const handler = tablelessHandler(authRoutes.getJwks, async () => ({
  data: { keys: [tokenPublicJwk()] },
  headers: { 'cache-control': 'public, max-age=300' },
}));
