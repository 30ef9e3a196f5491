import { pageRequest } from '../../lib/crypto/cursor';
import { listPublishableKeys } from '../../lib/db/publishable-keys';
import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { publicKeyView } from '../../lib/use-cases/publishable-keys';
import { toListResult } from '../../lib/use-cases/list-result';

export const handler = httpHandler(authRoutes.listPublishableKeys, async ({ query, caller }) => {
  const page = await listPublishableKeys(caller.medspaId, pageRequest(caller.medspaId, 'publishable-keys', query));
  return toListResult({ ...page, items: page.items.map(publicKeyView) });
});
