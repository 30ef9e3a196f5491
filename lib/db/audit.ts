import { AsyncLocalStorage } from 'node:async_hooks';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { queryPage } from './entities';
import type { PageRequest } from './cursor';
import { auditKey, auditPk } from './keys';
import type { TransactItem } from './transact';

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

const auditItem = (medspaId: string, entry: AuditEntry) => ({ ...auditKey(medspaId, entry.at, entry.request_id), entity: 'AUDIT', ...entry });

export async function recordAudit(medspaId: string, entry: AuditEntry): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: auditItem(medspaId, entry) }));
}

/**
 * A change request's audit entry, drafted before the change runs. The first transaction of the
 * request commits it with the change itself (so a committed change always has its entry, at no
 * extra round trip); requests whose writes are not transactions record it afterwards.
 */
export interface AuditDraft {
  medspaId: string;
  entry: Omit<AuditEntry, 'at'>;
  committed: boolean;
}

const drafts = new AsyncLocalStorage<AuditDraft>();

export const withAuditDraft = <T>(draft: AuditDraft, work: () => Promise<T>): Promise<T> => drafts.run(draft, work);

/** The Put to add to a transaction, or null when there is no draft or it is already committed. */
export function auditPutFor(items: TransactItem[]): { item: TransactItem; commit: () => void } | null {
  const draft = drafts.getStore();
  if (!draft || draft.committed || items.length >= 100) return null;
  // For creates the resource is the item the transaction puts with an `id`.
  const createdId = items.map((item) => item.Put?.Item?.id).find((id): id is string => typeof id === 'string');
  const entry = { ...draft.entry, resource_id: draft.entry.resource_id ?? createdId ?? null, at: new Date().toISOString() };
  return {
    item: { Put: { TableName: tableName(), Item: auditItem(draft.medspaId, entry) } },
    commit: () => {
      draft.committed = true;
    },
  };
}

/** Newest first, within [from, to]. */
export const listAudit = (medspaId: string, range: { from: string; to: string }, page: PageRequest) =>
  queryPage<AuditEntry>({
    keyCondition: { name: 'pk', value: auditPk(medspaId), sortBetween: [range.from, `${range.to}\uffff`] },
    descending: true,
    ...page,
  });
