import { tokenSigner } from '../../lib/auth/signing';
import { httpHandler } from '../../lib/http/handler';
import { authRoutes } from '../../lib/routes/auth';

export const handler = httpHandler(authRoutes.getJwks, async () => ({
  data: { keys: [(await tokenSigner()).publicJwk] },
  headers: { 'cache-control': 'public, max-age=300' },
}));
