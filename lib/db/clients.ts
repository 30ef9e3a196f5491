import type { PageRequest } from '../crypto/cursor';
import type { AppointmentRecord, ClientRecord } from '../domain/records';
import { withoutPractice, type PublicTreatmentRecord } from './appointments';
import { readItems } from './key-reads';
import { tableName } from './client';
import {
  appointmentCodec,
  appointmentIdCodec,
  clientCodec,
  clientSearchCodec,
  clientSearchEntryCodec,
  treatmentRecordCodec,
} from './codecs';
import { DataFailure } from './failure';
import { clientAppointmentsIndexPk, clientSearchKey, clientSearchPk, entityKey, treatmentRecordKey } from './keys';
import { oneOf, queryAll, queryPage, where, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { transact, type NamedAction, type TransactItem } from './transact';
import { isHidden, versionedFailure, versionedUpdate, type VersionedFailure } from './update';

/**
 * Clients with their search index (keys.ts `clientSearchKey`): every write of a client item that
 * changes what it is found by writes its index items in the same TransactWriteItems, so a
 * search never sees a stale name and a deleted client is never found. Plus the reads over a
 * client's appointments (gsi2): history and the future ones a deletion cancels.
 */

/** What a client is found by: its normalised terms (lib/domain/client-search) and its membership (a search filter). */
export interface ClientIndex {
  terms: string[];
  membershipStatus: string;
}

export const indexPut = (medspaId: string, clientId: string, index: ClientIndex, term: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: clientSearchCodec.toItem({
      medspa_id: medspaId,
      term,
      client_id: clientId,
      membership_status: index.membershipStatus,
    }),
  },
});

const indexDelete = (medspaId: string, clientId: string, term: string): TransactItem => ({
  Delete: { TableName: tableName(), Key: clientSearchKey(medspaId, term, clientId) },
});

export type ClientWriteResult = { ok: true } | { ok: false; failed: VersionedFailure };

/**
 * Runs the client's action with its index actions in one transaction; the client's is the only
 * condition: failing, the client is missing or deleted (`absent`) or of another `version`.
 */
async function transactClient(
  client: TransactItem,
  index: TransactItem[],
  writes?: RequestWrites,
): Promise<ClientWriteResult> {
  const outcome = await transact<NamedAction<'client' | 'index'>>(
    [{ name: 'client', action: client }, ...index.map((action) => ({ name: 'index' as const, action }))],
    writes,
  );
  return outcome.ok ? outcome : { ok: false, failed: versionedFailure(outcome.failed[0].old, isHidden) };
}

/** The writes of a new client with its search index: the client's Put is conditioned on its id being new. */
export const newClientActions = (client: ClientRecord, index: ClientIndex): TransactItem[] => [
  {
    Put: { TableName: tableName(), Item: clientCodec.toItem(client), ConditionExpression: 'attribute_not_exists(pk)' },
  },
  ...index.terms.map((term) => indexPut(client.medspa_id, client.id, index, term)),
];

/**
 * That a client is still found by these terms, as checks: online booking's transaction for a
 * known email, item for item where a new one puts its client and index (the two take alike).
 */
export const clientIndexChecks = (medspaId: string, clientId: string, index: ClientIndex): TransactItem[] =>
  index.terms.map((term) => ({
    ConditionCheck: {
      TableName: tableName(),
      Key: clientSearchKey(medspaId, term, clientId),
      ConditionExpression: 'attribute_exists(pk)',
    },
  }));

/** A new client with its search index; its id is new (else a DataFailure `collision`). */
export async function putNewClient(client: ClientRecord, index: ClientIndex, writes?: RequestWrites): Promise<void> {
  const [put, ...indexPuts] = newClientActions(client, index);
  const result = await transactClient(put, indexPuts, writes);
  if (!result.ok) throw new DataFailure('collision', `client ${client.id} already exists`);
}

/**
 * A versioned update of a live client (`expectedVersion` is the version read) with its index
 * moved from `before` terms to `after`: terms no longer there are deleted, the others (re)put
 * with the current membership. A deletion passes `after: { terms: [] }`.
 */
export async function updateClientWithIndex(
  medspaId: string,
  id: string,
  changes: Record<string, unknown>,
  options: {
    expectedVersion: number;
    now: string;
    before: string[];
    after: ClientIndex;
    /** Only while no membership plan governs the client (no `membership_plan_id`: lib/domain/membership.ts). */
    unmanaged?: boolean;
    /** More writes of the change (a deletion's: the client leaves the marketing consent lists). */
    alongside?: TransactItem[];
    writes?: RequestWrites;
  },
): Promise<ClientWriteResult> {
  const kept = new Set(options.after.terms);
  const update = versionedUpdate(changes, {
    expectedVersion: options.expectedVersion,
    now: options.now,
    condition: options.unmanaged
      ? 'attribute_not_exists(deleted_at) AND NOT attribute_type(#membershipPlan, :stringType)'
      : 'attribute_not_exists(deleted_at)',
  });
  return transactClient(
    {
      Update: {
        TableName: tableName(),
        Key: entityKey(medspaId, 'CLIENT', id),
        ...update,
        ...(options.unmanaged && {
          ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#membershipPlan': 'membership_plan_id' },
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':stringType': 'S' },
        }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    [
      ...options.before.filter((term) => !kept.has(term)).map((term) => indexDelete(medspaId, id, term)),
      ...options.after.terms.map((term) => indexPut(medspaId, id, options.after, term)),
      ...(options.alongside ?? []),
    ],
    options.writes,
  );
}

/**
 * Every index entry whose term starts with `prefix` (optionally of one membership), in term
 * order: one strongly consistent Query reading only keys, paged past 1 MB. Bounded by the
 * prefix: at most (terms per client, <= 6) x (matching clients) small items.
 */
export async function findClientIndexEntries(
  medspaId: string,
  prefix: string,
  membershipStatus?: string,
): Promise<{ sk: string; clientId: string }[]> {
  const entries = await queryAll(clientSearchEntryCodec, {
    partition: clientSearchPk(medspaId),
    sort: { op: 'begins_with', value: prefix },
    projection: ['sk', 'client_id'],
    consistent: true,
    filter: where<{ membership_status: string }>({ membership_status: membershipStatus }),
  });
  return entries.map((entry) => ({ sk: entry.sk, clientId: entry.client_id }));
}

// ---- The client's appointments (gsi2: P#{mid}#CLIENT_APPTS#{clientId}, sorted by scheduled_at) ----

/** Completed appointments, newest first; `total` counts the same range and filter (a COUNT Query unless the page is all of it). */
export const completedAppointmentsOf = (
  medspaId: string,
  clientId: string,
  page: PageRequest,
): Promise<Page<AppointmentRecord>> =>
  queryPage(appointmentCodec, {
    partition: clientAppointmentsIndexPk(medspaId, clientId),
    index: 'gsi2',
    ...page,
    descending: true,
    filter: where<AppointmentRecord>({ status: 'completed' }),
  });

/** Treatment records of these appointments, by appointment id: one batched read. */
export async function treatmentRecordsOf(
  medspaId: string,
  appointmentIds: string[],
): Promise<Map<string, PublicTreatmentRecord>> {
  const found = await readItems(appointmentIds.map((id) => treatmentRecordKey(medspaId, id)));
  const records = new Map<string, PublicTreatmentRecord>();
  for (const item of found.values()) {
    const record = withoutPractice(treatmentRecordCodec.fromItem(item))!;
    records.set(record.appointment_id, record);
  }
  return records;
}

/**
 * Ids of the client's appointments starting at or after `from` whose status is one of
 * `statuses`. gsi2 is eventually consistent: an appointment booked a moment ago may be missing.
 */
export async function appointmentIdsFrom(
  medspaId: string,
  clientId: string,
  from: string,
  statuses: readonly string[],
): Promise<string[]> {
  const appointments = await queryAll(appointmentIdCodec, {
    partition: clientAppointmentsIndexPk(medspaId, clientId),
    index: 'gsi2',
    sort: { op: '>=', value: from },
    projection: ['id'],
    filter: where<{ status: string }>({ status: oneOf(statuses) }),
  });
  return appointments.map((appointment) => appointment.id);
}
