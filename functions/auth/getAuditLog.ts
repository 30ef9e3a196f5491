import { listAudit } from '../../lib/db/audit';
import { httpHandler } from '../../lib/http/handler';

const DAY_MS = 86_400_000;

export const handler = httpHandler('getAuditLog', async ({ query, caller, now }) => {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS);
  const page = await listAudit(caller.medspaId, { from: from.toISOString(), to: to.toISOString() }, query);
  return { data: page.items, pagination: { total: page.total, next_cursor: page.nextCursor } };
});
