import { httpHandler } from '../../lib/http/handler';
import * as authRoutes from '../../lib/routes/auth';
import { auditLog } from '../../lib/use-cases/audit';
import { toListResult } from '../../lib/use-cases/list-result';

export const handler = httpHandler(authRoutes.getAuditLog, async ({ query, caller, now }) =>
  toListResult(await auditLog(caller.medspaId, query, now)),
);
