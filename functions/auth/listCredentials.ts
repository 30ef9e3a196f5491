import { listCredentials, publicCredential } from '../../lib/db/credentials';
import { httpHandler } from '../../lib/http/handler';

export const handler = httpHandler('listCredentials', async ({ query, caller }) => {
  const page = await listCredentials(caller.medspaId, query);
  return { data: page.items.map(publicCredential), pagination: { total: page.total, next_cursor: page.nextCursor } };
});
