import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { queryPage } from './entities';
import { auditKey, auditPk } from './keys';

export interface AuditEntry {
  at: string;
  request_id: string;
  client_id: string | null;
  role: string | null;
  operation: string;
  method: string;
  resource_id: string | null;
  outcome: string;
  status: number;
}

export async function recordAudit(medspaId: string, entry: AuditEntry): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...auditKey(medspaId, entry.at, entry.request_id), entity: 'AUDIT', ...entry } }),
  );
}

/** Newest first, within [from, to]. */
export const listAudit = (medspaId: string, range: { from: string; to: string }, page: { limit: number; cursor?: string }) =>
  queryPage<AuditEntry>({
    keyCondition: { name: 'pk', value: auditPk(medspaId), sortBetween: [range.from, `${range.to}\uffff`] },
    descending: true,
    ...page,
  });
