import { pageRequest } from '../../lib/crypto/cursor';
import { listCredentials, publicCredential } from '../../lib/db/credentials';
import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { toListResult } from '../../lib/use-cases/list-result';

export const handler = httpHandler(authRoutes.listCredentials, async ({ query, caller }) => {
  const page = await listCredentials(caller.medspaId, pageRequest(caller.medspaId, 'credentials', query));
  return toListResult({ ...page, items: page.items.map(publicCredential) });
});
