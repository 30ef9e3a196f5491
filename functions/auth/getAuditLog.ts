import { httpHandler } from '../../lib/http/handler';
import { auditLog } from '../../lib/use-cases/audit';

export const handler = httpHandler('getAuditLog', async ({ query, caller, now }) => {
  const page = await auditLog(caller.medspaId, query, now);
  return { data: page.items, pagination: { total: page.total, next_cursor: page.nextCursor } };
});
