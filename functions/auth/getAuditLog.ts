import { httpHandler } from '../../lib/http/handler';
import { auditLog } from '../../lib/use-cases/audit';
import { toListResult } from '../../lib/use-cases/resources';

export const handler = httpHandler('getAuditLog', async ({ query, caller, now }) => toListResult(await auditLog(caller.medspaId, query, now)));
