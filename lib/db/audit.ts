import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../crypto/cursor';
import { ddb, tableName } from './client';
import type { AuditRecord } from '../domain/records';
import { auditCodec } from './codecs';
import { auditPk } from './keys';
import { queryPage } from './query';
import type { TransactItem } from './transact-types';

/** What a request audits; its practice comes from the token. */
export type AuditEntry = Omit<AuditRecord, 'medspa_id'>;

const auditItem = (medspaId: string, entry: AuditEntry) => auditCodec.toItem({ medspa_id: medspaId, ...entry });

export async function recordAudit(medspaId: string, entry: AuditEntry): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: auditItem(medspaId, entry) }));
}

/**
 * The audit entry as a Put for the change's own transaction. For a create, the resource is the
 * item the transaction puts with an `id`.
 */
export function auditPut(medspaId: string, entry: AuditEntry, actions: readonly TransactItem[]): TransactItem {
  const createdId = actions.map((item) => item.Put?.Item?.id).find((id): id is string => typeof id === 'string');
  return {
    Put: {
      TableName: tableName(),
      Item: auditItem(medspaId, { ...entry, resource_id: entry.resource_id ?? createdId ?? null }),
    },
  };
}

/** Newest first, within [from, to]. */
export const listAudit = (medspaId: string, range: { from: string; to: string }, page: PageRequest) =>
  queryPage(auditCodec, {
    partition: auditPk(medspaId),
    sort: { op: 'between', from: range.from, to: `${range.to}\uffff` },
    descending: true,
    ...page,
  });
