import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { GenerationPlan, GenerationState, LedgerEntry } from '../domain/report-aggregates';
import type { PracticeRecord, ReportGenerationRecord } from '../domain/records';
import { ddb, tableName } from './client';
import {
  itemKeyCodec,
  practiceCodec,
  reportClientVisitsCodec,
  reportGenerationCodec,
  reportLedgerCodec,
} from './codecs';
import { itemId, readItems } from './key-reads';
import { COLLECTIONS, type RecordOf } from './batch';
import { queryAll } from './query';
import {
  collectionPk,
  practiceKey,
  reportClientVisitsKey,
  reportClientVisitsPk,
  reportDaysPk,
  reportGenerationKey,
  reportLedgerKey,
  reportLedgerPk,
  type Key,
} from './keys';
import { dayUpdate } from './report-days';
import { MAX_TRANSACTION_ACTIONS, transact, type NamedAction } from './transact';

/**
 * Report aggregates in the table: the generation pointer, per-record ledger entries and per-client
 * visit dates (the day counters are ./report-days.ts, the records counted
 * ./report-sources.ts). The maths is in lib/domain/report-aggregates.ts; this module reads the
 * state a plan needs and commits a plan.
 */

/** The first generation, before any rebuild wrote a pointer. */
export const INITIAL_GENERATION = '1';

export interface GenerationPointer {
  active: string;
  building: string | null;
  /** null: no pointer item yet (generation 1 is live). */
  rev: number | null;
}

const pointerOf = (item: Record<string, unknown> | undefined): GenerationPointer => {
  const stored = reportGenerationCodec.fromItem(item);
  return stored
    ? { active: stored.active, building: stored.building ?? null, rev: stored.rev }
    : { active: INITIAL_GENERATION, building: null, rev: null };
};

/** The practice and its report generation pointer, in one strongly consistent round trip. */
export async function readReportContext(
  medspaId: string,
): Promise<{ practice: PracticeRecord | null; pointer: GenerationPointer }> {
  const found = await readItems([practiceKey(medspaId), reportGenerationKey(medspaId)]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    pointer: pointerOf(found.get(itemId(reportGenerationKey(medspaId)))),
  };
}

/** Moves the pointer, only from the revision read (so two rebuilds never both take it). False when it moved meanwhile. */
export async function writeGenerationPointer(
  medspaId: string,
  next: { active: string; building: string | null },
  expectedRev: number | null,
  now: string,
): Promise<boolean> {
  const record: ReportGenerationRecord = {
    medspa_id: medspaId,
    active: next.active,
    building: next.building,
    rev: (expectedRev ?? 0) + 1,
    updated_at: now,
  };
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: reportGenerationCodec.toItem(record),
        ConditionExpression: expectedRev === null ? 'attribute_not_exists(pk)' : '#rev = :rev',
        ...(expectedRev === null
          ? {}
          : { ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': expectedRev } }),
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

// ---- The state a unit of changes needs --------------------------------------------------------

export interface UnitStateRequest {
  generations: readonly string[];
  recordKeys: readonly string[];
  clientIds: readonly string[];
}

export interface UnitState {
  byGeneration: Map<string, GenerationState>;
}

/** Ledger entries and client visit items, in one batched read. */
export async function readUnitState(medspaId: string, request: UnitStateRequest): Promise<UnitState> {
  const keys: Key[] = [];
  for (const generation of request.generations) {
    keys.push(...request.recordKeys.map((key) => reportLedgerKey(medspaId, generation, key)));
    keys.push(...request.clientIds.map((id) => reportClientVisitsKey(medspaId, generation, id)));
  }
  const found = await readItems(keys);
  const byGeneration = new Map<string, GenerationState>();
  for (const generation of request.generations) {
    const ledger = new Map<string, LedgerEntry | null>();
    for (const key of request.recordKeys) {
      const entry = reportLedgerCodec.fromItem(found.get(itemId(reportLedgerKey(medspaId, generation, key))));
      ledger.set(key, entry ? { version: entry.version, facts: entry.facts } : null);
    }
    const clients: GenerationState['clients'] = new Map();
    for (const id of request.clientIds) {
      const visits = reportClientVisitsCodec.fromItem(
        found.get(itemId(reportClientVisitsKey(medspaId, generation, id))),
      );
      clients.set(id, visits ? { dates: visits.dates, rev: visits.rev } : null);
    }
    byGeneration.set(generation, { ledger, clients });
  }
  return { byGeneration };
}

// ---- Committing a unit -------------------------------------------------------------------------

export interface UnitWrite {
  medspaId: string;
  /** The zone the facts were computed in: the practice must still have it. */
  zone: string;
  /** The pointer revision the generations came from: it must not have moved. */
  pointerRev: number | null;
  plans: ReadonlyArray<{ generation: string; plan: GenerationPlan }>;
}

export type UnitOutcome =
  | { ok: true }
  /** The pointer or the practice's zone changed: read them again. */
  | { ok: false; failed: 'context' }
  /** A ledger entry or client item changed since it was read: read again. */
  | { ok: false; failed: 'state' };

const conditionOn = (attribute: string, expected: number | null) =>
  expected === null
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : {
        ConditionExpression: '#v = :expected',
        ExpressionAttributeNames: { '#v': attribute },
        ExpressionAttributeValues: { ':expected': expected },
      };

/** The actions of a unit besides its plans: the two context checks. */
export const UNIT_OVERHEAD_ACTIONS = 2;

/**
 * ONE TransactWriteItems: every generation's counter ADDs, ledger entries and client items (each
 * conditioned on the state read), and checks that the pointer and the zone are still those the
 * plan used. The ledger entries make a record count once: one whose version the ledger holds is
 * skipped by the plan, and a racing writer fails the entry's condition (docs/decisions/0004).
 */
/** A unit's actions, named by what a failed condition means. */
type UnitAction = NamedAction<'pointer' | 'zone' | 'state' | 'totals' | 'clients'>;

export async function commitUnit(write: UnitWrite): Promise<UnitOutcome> {
  const { medspaId } = write;
  const actions: UnitAction[] = [
    {
      name: 'pointer',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: reportGenerationKey(medspaId),
          ...conditionOn('rev', write.pointerRev),
        },
      },
    },
    {
      name: 'zone',
      action: {
        ConditionCheck: {
          TableName: tableName(),
          Key: practiceKey(medspaId),
          ConditionExpression: '#zone = :zone',
          ExpressionAttributeNames: { '#zone': 'time_zone' },
          ExpressionAttributeValues: { ':zone': write.zone },
        },
      },
    },
  ];
  for (const { generation, plan } of write.plans) {
    for (const [recordKey, { expectedVersion, entry }] of plan.ledger) {
      actions.push({
        name: 'state',
        action: {
          Put: {
            TableName: tableName(),
            Item: reportLedgerCodec.toItem({
              medspa_id: medspaId,
              generation,
              record_key: recordKey,
              version: entry.version,
              facts: entry.facts,
            }),
            ...conditionOn('version', expectedVersion),
          },
        },
      });
    }
    for (const [clientId, { expectedRev, dates, rev }] of plan.clients) {
      actions.push({
        name: 'state',
        action: {
          Put: {
            TableName: tableName(),
            Item: reportClientVisitsCodec.toItem({ medspa_id: medspaId, generation, client_id: clientId, dates, rev }),
            ...conditionOn('rev', expectedRev),
          },
        },
      });
    }
    for (const [date, counters] of plan.totals)
      actions.push({ name: 'totals', action: dayUpdate(medspaId, generation, 'TOTALS', date, counters) });
    for (const [date, counters] of plan.clientDays)
      actions.push({ name: 'clients', action: dayUpdate(medspaId, generation, 'CLIENTS', date, counters) });
  }
  if (actions.length > MAX_TRANSACTION_ACTIONS)
    throw new Error(`report unit of ${actions.length} actions is over the transaction limit`);
  const outcome = await transact(actions);
  if (outcome.ok) return outcome;
  if (outcome.failed.some((failure) => failure.name === 'pointer' || failure.name === 'zone'))
    return { ok: false, failed: 'context' };
  return { ok: false, failed: 'state' };
}

// ---- Removing a generation -----------------------------------------------------------------------

async function deleteKeys(keys: Key[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    let requests = keys.slice(i, i + 25).map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } }));
    while (requests.length) {
      const result = await ddb().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (result.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}

const keysIn = async (pk: string): Promise<Key[]> =>
  queryAll(itemKeyCodec, { partition: pk, projection: ['pk', 'sk'] });

/**
 * Deletes a generation nobody reads or writes any more (after a rebuild switched away from it):
 * its ledger, client visits and the day items of `years`. Returns how many items went.
 */
export async function deleteGeneration(
  medspaId: string,
  generation: string,
  years: readonly string[],
): Promise<number> {
  const partitions = [
    reportLedgerPk(medspaId, generation),
    reportClientVisitsPk(medspaId, generation),
    ...years.map((year) => reportDaysPk(medspaId, generation, year)),
  ];
  let deleted = 0;
  for (const pk of partitions) {
    const keys = await keysIn(pk);
    await deleteKeys(keys);
    deleted += keys.length;
  }
  return deleted;
}

/** Every item of a (small) setup collection, deleted ones included: the providers and services a report names. */
export async function readWholeCollection<K extends 'PROVIDER' | 'SERVICE'>(
  medspaId: string,
  type: K,
): Promise<RecordOf<K>[]> {
  return queryAll(COLLECTIONS[type], { partition: collectionPk(medspaId, type) });
}
