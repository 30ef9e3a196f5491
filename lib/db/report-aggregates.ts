import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { GenerationPlan, GenerationState, LedgerEntry } from '../domain/report-aggregates';
import type { Appointment, Payment, Practice, ReportGeneration, StockAdjustment } from '../domain/records';
import { ddb, tableName } from './client';
import {
  appointmentCodec,
  paymentCodec,
  practiceCodec,
  REPORT_DAY_ENTITY,
  reportClientVisitsCodec,
  reportGenerationCodec,
  reportLedgerCodec,
  reportStreamMarkerCodec,
  stockAdjustmentCodec,
  type StoredStockAdjustment,
} from './codecs';
import { batchGetKeys, fromItem, itemId, queryAll } from './entities';
import {
  appointmentTimeIndexPk,
  collectionPk,
  paymentTimeIndexPk,
  practiceKey,
  reportClientVisitsKey,
  reportClientVisitsPk,
  reportDayKey,
  reportDaySk,
  reportDaysPk,
  reportGenerationKey,
  reportLedgerKey,
  reportLedgerPk,
  reportStreamMarkerKey,
  retailSalesIndexPk,
  type EntityType,
  type Key,
  type ReportDayKind,
} from './keys';
import { transact, type NamedAction } from './transact';
import { decodeImage, type StreamRecord } from '../events/stream-record';

/**
 * Report aggregates in the table: the generation pointer, per-day counter items, per-record
 * ledger entries, per-client visit dates and the stream markers. The maths is in
 * lib/domain/report-aggregates.ts; this module reads the state a plan needs and commits a plan.
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
  return stored ? { active: stored.active, building: stored.building ?? null, rev: stored.rev } : { active: INITIAL_GENERATION, building: null, rev: null };
};

/** The practice and its report generation pointer, in one strongly consistent round trip. */
export async function readReportContext(medspaId: string): Promise<{ practice: Practice | null; pointer: GenerationPointer }> {
  const found = await batchGetKeys([practiceKey(medspaId), reportGenerationKey(medspaId)]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    pointer: pointerOf(found.get(itemId(reportGenerationKey(medspaId)))),
  };
}

/** Moves the pointer, only from the revision read (so two rebuilds never both take it). False when it moved meanwhile. */
export async function writeGenerationPointer(medspaId: string, next: { active: string; building: string | null }, expectedRev: number | null, now: string): Promise<boolean> {
  const record: ReportGeneration = { medspa_id: medspaId, active: next.active, building: next.building, rev: (expectedRev ?? 0) + 1, updated_at: now };
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: reportGenerationCodec.toItem(record),
        ConditionExpression: expectedRev === null ? 'attribute_not_exists(pk)' : '#rev = :rev',
        ...(expectedRev === null ? {} : { ExpressionAttributeNames: { '#rev': 'rev' }, ExpressionAttributeValues: { ':rev': expectedRev } }),
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
  eventIds: readonly string[];
}

export interface UnitState {
  byGeneration: Map<string, GenerationState>;
  /** Stream records already applied (their marker exists). */
  appliedEvents: Set<string>;
}

/** Ledger entries, client visit items and stream markers, in one batched read. */
export async function readUnitState(medspaId: string, request: UnitStateRequest): Promise<UnitState> {
  const keys: Key[] = request.eventIds.map((id) => reportStreamMarkerKey(medspaId, id));
  for (const generation of request.generations) {
    keys.push(...request.recordKeys.map((key) => reportLedgerKey(medspaId, generation, key)));
    keys.push(...request.clientIds.map((id) => reportClientVisitsKey(medspaId, generation, id)));
  }
  const found = await batchGetKeys(keys);
  const byGeneration = new Map<string, GenerationState>();
  for (const generation of request.generations) {
    const ledger = new Map<string, LedgerEntry | null>();
    for (const key of request.recordKeys) {
      const entry = reportLedgerCodec.fromItem(found.get(itemId(reportLedgerKey(medspaId, generation, key))));
      ledger.set(key, entry ? { version: entry.version, facts: entry.facts } : null);
    }
    const clients: GenerationState['clients'] = new Map();
    for (const id of request.clientIds) {
      const visits = reportClientVisitsCodec.fromItem(found.get(itemId(reportClientVisitsKey(medspaId, generation, id))));
      clients.set(id, visits ? { dates: visits.dates, rev: visits.rev } : null);
    }
    byGeneration.set(generation, { ledger, clients });
  }
  const appliedEvents = new Set(request.eventIds.filter((id) => found.has(itemId(reportStreamMarkerKey(medspaId, id)))));
  return { byGeneration, appliedEvents };
}

// ---- Committing a unit -------------------------------------------------------------------------

export interface UnitWrite {
  medspaId: string;
  /** The zone the facts were computed in: the practice must still have it. */
  zone: string;
  /** The pointer revision the generations came from: it must not have moved. */
  pointerRev: number | null;
  /** Stream records applied by this write (none for a rebuild). */
  eventIds: readonly string[];
  plans: ReadonlyArray<{ generation: string; plan: GenerationPlan }>;
  now: Date;
}

/** How long a stream marker outlives its record: longer than the stream keeps records (24 h). */
const MARKER_TTL_SECONDS = 48 * 3600;

export type UnitOutcome =
  | { ok: true }
  /** The pointer or the practice's zone changed: read them again. */
  | { ok: false; failed: 'context' }
  /** These stream records were applied meanwhile (their markers exist). */
  | { ok: false; failed: 'markers'; eventIds: string[] }
  /** A ledger entry or client item changed since it was read: read again. */
  | { ok: false; failed: 'state' };

function dayUpdate(medspaId: string, generation: string, kind: ReportDayKind, date: string, counters: Record<string, number>) {
  const names: Record<string, string> = { '#entity': 'entity', '#medspa': 'medspa_id', '#generation': 'generation', '#date': 'date' };
  const values: Record<string, unknown> = { ':entity': REPORT_DAY_ENTITY[kind], ':medspa': medspaId, ':generation': generation, ':date': date };
  const adds = Object.entries(counters).map(([name, delta], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = delta;
    return `#c${index} :c${index}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: reportDayKey(medspaId, generation, kind, date),
      UpdateExpression: `SET #entity = :entity, #medspa = :medspa, #generation = :generation, #date = :date ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

const conditionOn = (attribute: string, expected: number | null) =>
  expected === null
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : { ConditionExpression: '#v = :expected', ExpressionAttributeNames: { '#v': attribute }, ExpressionAttributeValues: { ':expected': expected } };

/** The actions of a unit besides its plans: the two context checks and the markers. */
export const unitOverheadActions = (eventIds: number) => 2 + eventIds;

/**
 * ONE TransactWriteItems: the stream markers (each only if absent), every generation's counter
 * ADDs, ledger entries and client items (each conditioned on the state read), and checks that
 * the pointer and the zone are still those the plan used.
 */
export async function commitUnit(write: UnitWrite): Promise<UnitOutcome> {
  const { medspaId } = write;
  const actions: NamedAction[] = [
    {
      name: 'pointer',
      action: { ConditionCheck: { TableName: tableName(), Key: reportGenerationKey(medspaId), ...conditionOn('rev', write.pointerRev) } },
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
  const appliedAt = write.now.toISOString();
  const expiresAt = Math.floor(write.now.getTime() / 1000) + MARKER_TTL_SECONDS;
  for (const eventId of write.eventIds) {
    actions.push({
      name: `marker:${eventId}`,
      action: {
        Put: {
          TableName: tableName(),
          Item: reportStreamMarkerCodec.toItem({ medspa_id: medspaId, event_id: eventId, applied_at: appliedAt, expires_at: expiresAt }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    });
  }
  for (const { generation, plan } of write.plans) {
    for (const [recordKey, { expectedVersion, entry }] of plan.ledger) {
      actions.push({
        name: `state:ledger:${generation}:${recordKey}`,
        action: {
          Put: {
            TableName: tableName(),
            Item: reportLedgerCodec.toItem({ medspa_id: medspaId, generation, record_key: recordKey, version: entry.version, facts: entry.facts }),
            ...conditionOn('version', expectedVersion),
          },
        },
      });
    }
    for (const [clientId, { expectedRev, dates, rev }] of plan.clients) {
      actions.push({
        name: `state:client:${generation}:${clientId}`,
        action: {
          Put: {
            TableName: tableName(),
            Item: reportClientVisitsCodec.toItem({ medspa_id: medspaId, generation, client_id: clientId, dates, rev }),
            ...conditionOn('rev', expectedRev),
          },
        },
      });
    }
    for (const [date, counters] of plan.totals) actions.push({ name: `totals:${generation}:${date}`, action: dayUpdate(medspaId, generation, 'TOTALS', date, counters) });
    for (const [date, counters] of plan.clientDays) actions.push({ name: `clients:${generation}:${date}`, action: dayUpdate(medspaId, generation, 'CLIENTS', date, counters) });
  }
  if (actions.length > 100) throw new Error(`report unit of ${actions.length} actions is over the transaction limit`);
  const outcome = await transact(actions);
  if (outcome.ok) return outcome;
  const failed = outcome.failed.map((failure) => failure.name);
  if (failed.includes('pointer') || failed.includes('zone')) return { ok: false, failed: 'context' };
  const markers = failed.filter((name) => name.startsWith('marker:')).map((name) => name.slice('marker:'.length));
  if (markers.length) return { ok: false, failed: 'markers', eventIds: markers };
  return { ok: false, failed: 'state' };
}

// ---- Reading day items -------------------------------------------------------------------------

/** Attributes of a day item that are not counters. */
const DAY_ITEM_FIELDS = new Set(['pk', 'sk', 'entity', 'medspa_id', 'generation', 'date']);

export interface DayItem {
  date: string;
  counters: Record<string, number>;
}

const yearsOf = (from: string, to: string) => {
  const years: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1) years.push(String(year).padStart(4, '0'));
  return years;
};

/**
 * A generation's day items of one kind for local dates [from, to]: one Query per calendar year
 * touched (in parallel), each a BETWEEN on the sort key. `counters` narrows what is read
 * (ProjectionExpression) when only some counters matter.
 */
export async function queryReportDays(
  medspaId: string,
  generation: string,
  kind: ReportDayKind,
  range: { from: string; to: string },
  counters?: readonly string[],
): Promise<DayItem[]> {
  const projection = counters ? ['sk', ...counters] : undefined;
  const names = projection ? Object.fromEntries(projection.map((name, index) => [`#p${index}`, name])) : {};
  const perYear = await Promise.all(
    yearsOf(range.from, range.to).map((year) =>
      queryAll({
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', ...names },
        ExpressionAttributeValues: {
          ':pk': reportDaysPk(medspaId, generation, year),
          ':from': reportDaySk(kind, range.from > `${year}-01-01` ? range.from : `${year}-01-01`),
          ':to': reportDaySk(kind, range.to < `${year}-12-31` ? range.to : `${year}-12-31`),
        },
        ...(projection ? { ProjectionExpression: Object.keys(names).join(', ') } : {}),
      }),
    ),
  );
  return perYear.flat().map((item) => {
    const date = String(item.sk).slice(kind.length + 1);
    const values = Object.entries(item).filter(([name, value]) => !DAY_ITEM_FIELDS.has(name) && typeof value === 'number');
    return { date, counters: Object.fromEntries(values) as Record<string, number> };
  });
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
  (await queryAll({ KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: '#pk, #sk' })) as unknown as Key[];

/**
 * Deletes a generation nobody reads or writes any more (after a rebuild switched away from it):
 * its ledger, client visits and the day items of `years`. Returns how many items went.
 */
export async function deleteGeneration(medspaId: string, generation: string, years: readonly string[]): Promise<number> {
  const partitions = [reportLedgerPk(medspaId, generation), reportClientVisitsPk(medspaId, generation), ...years.map((year) => reportDaysPk(medspaId, generation, year))];
  let deleted = 0;
  for (const pk of partitions) {
    const keys = await keysIn(pk);
    await deleteKeys(keys);
    deleted += keys.length;
  }
  return deleted;
}

// ---- Source records, for a rebuild -------------------------------------------------------------

/** Every item of some gsi1 month partitions, a few partitions at a time. */
async function readMonthPartitions(partitions: readonly string[]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const queue = [...partitions];
  const worker = async () => {
    for (let pk = queue.shift(); pk !== undefined; pk = queue.shift()) {
      items.push(...(await queryAll({ IndexName: 'gsi1', KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'gsi1pk' }, ExpressionAttributeValues: { ':pk': pk } })));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return items;
}

/**
 * The practice's appointments, payments and retail sales whose instants fall in the UTC months
 * given: Queries on the existing month indexes (gsi1), never a Scan.
 */
export async function readReportSources(medspaId: string, utcMonths: readonly string[]) {
  const [appointments, payments, sales] = await Promise.all([
    readMonthPartitions(utcMonths.map((month) => appointmentTimeIndexPk(medspaId, month))),
    readMonthPartitions(utcMonths.map((month) => paymentTimeIndexPk(medspaId, month))),
    readMonthPartitions(utcMonths.map((month) => retailSalesIndexPk(medspaId, month))),
  ]);
  return {
    appointments: appointments.map((item) => appointmentCodec.fromItem(item)!) as Appointment[],
    payments: payments.map((item) => paymentCodec.fromItem(item)!) as Payment[],
    sales: sales.map((item) => stockAdjustmentCodec.fromItem(item)!) as StoredStockAdjustment[],
  };
}

// ---- Stream records ------------------------------------------------------------------------------

/** What a stream record means to the reports: a source record at a version (null: removed), or a practice change. */
export type ReportSource =
  | { kind: 'APPOINTMENT'; medspaId: string; id: string; version: number; record: Appointment | null; clientId: string }
  | { kind: 'PAYMENT'; medspaId: string; id: string; version: number; record: Payment | null }
  | { kind: 'SALE'; medspaId: string; id: string; version: number; record: StockAdjustment | null }
  | { kind: 'PRACTICE'; medspaId: string; practice: Practice | null };

/** The records reports count (the codecs' entity tags). */
const COUNTED_ENTITIES = new Set([appointmentCodec.entity, paymentCodec.entity, stockAdjustmentCodec.entity, practiceCodec.entity]);

/** An image's `entity` tag, read from the wire format without decoding the rest. */
const entityOf = (image: Record<string, unknown> | undefined) => (image?.entity as { S?: string } | undefined)?.S;

/**
 * Recognises the records reports count by their `entity` (the codecs' tags) and reads the images
 * through the codecs. A removal is the record at its last version + 1, gone. Anything else
 * (claims, audit entries, the aggregates' own items, stock movements that are not sales) is null.
 */
export function decodeReportSource(record: StreamRecord): ReportSource | null {
  const entity = entityOf(record.dynamodb?.NewImage) ?? entityOf(record.dynamodb?.OldImage);
  if (!entity || !COUNTED_ENTITIES.has(entity)) return null;
  const newImage = decodeImage(record.dynamodb?.NewImage);
  const oldImage = decodeImage(record.dynamodb?.OldImage);
  const image = newImage ?? oldImage;
  if (!image) return null;
  const removed = record.eventName === 'REMOVE' || !newImage;
  switch (image.entity) {
    case appointmentCodec.entity: {
      const current = appointmentCodec.fromItem(image)!;
      return { kind: 'APPOINTMENT', medspaId: current.medspa_id, id: current.id, version: current.version + (removed ? 1 : 0), record: removed ? null : current, clientId: current.client_id };
    }
    case paymentCodec.entity: {
      const current = paymentCodec.fromItem(image)!;
      return { kind: 'PAYMENT', medspaId: current.medspa_id, id: current.id, version: (current.version ?? 1) + (removed ? 1 : 0), record: removed ? null : current };
    }
    case stockAdjustmentCodec.entity: {
      const current = stockAdjustmentCodec.fromItem(image)!;
      if (current.reason !== 'sale') return null;
      const { medspa_id: medspaId, ...adjustment } = current;
      return { kind: 'SALE', medspaId, id: current.id, version: removed ? 2 : 1, record: removed ? null : adjustment };
    }
    case practiceCodec.entity: {
      const practice = practiceCodec.fromItem(image)!;
      return { kind: 'PRACTICE', medspaId: practice.id, practice: removed ? null : practice };
    }
    default:
      return null;
  }
}

/** Every item of a (small) setup collection, deleted ones included: the providers and services a report names. */
export async function readWholeCollection<T>(medspaId: string, type: Extract<EntityType, 'PROVIDER' | 'SERVICE'>): Promise<T[]> {
  const items = await queryAll({ KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': 'pk' }, ExpressionAttributeValues: { ':pk': collectionPk(medspaId, type) } });
  return items.map((item) => fromItem<T>(item)!);
}
