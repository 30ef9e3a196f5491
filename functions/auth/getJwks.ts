import { tokenSigner } from '../../lib/auth/signing';
import { httpHandler } from '../../lib/http/handler';

export const handler = httpHandler('getJwks', async () => ({
  data: { keys: [(await tokenSigner()).publicJwk] },
  headers: { 'cache-control': 'public, max-age=300' },
}));
