import { randomBytes } from 'node:crypto';
import { clock } from '../clock';
import {
  appointmentFacts,
  paymentFacts,
  planActions,
  planGeneration,
  recordKeyOf,
  saleFacts,
  type GenerationPlan,
  type SourceChange,
} from '../domain/report-aggregates';
import { addDays, addMonths, monthsBetween } from '../domain/time';
import {
  commitUnit,
  deleteGeneration,
  readReportContext,
  readUnitState,
  unitOverheadActions,
  writeGenerationPointer,
  type GenerationPointer,
  type UnitOutcome,
} from '../db/report-aggregates';
import { queryReportDays } from '../db/report-days';
import { decodeReportSource, readReportSources, type ReportSource } from '../db/report-sources';
import type { ReportDayKind } from '../db/keys';
import { jitter } from '../db/transact';
import { AppError } from '../errors';
import type { StreamRecord } from '../db/stream';

/**
 * Report aggregates kept by the table stream, and their rebuild. The counting rules are pure
 * (lib/domain/report-aggregates.ts); here they meet DynamoDB:
 *
 * - `applyStreamRecords(records)`: called by the stream consumer with each batch (locally and on
 *   AWS). Per practice, records are taken in order in units of up to 40: one BatchGetItem reads
 *   their markers, ledger entries and client visit items, one TransactWriteItems writes the
 *   markers (attribute_not_exists), the counter ADDs, the ledger entries and client items
 *   (conditioned on what was read) and checks the generation pointer and the zone. A lost race
 *   reads again; a record already applied (marker, or its version already counted) changes nothing.
 * - `rebuildAggregates(medspaId)`: recomputes every counter from the source records into a fresh
 *   generation while the stream keeps writing the live one AND the new one, then switches the
 *   pointer and deletes the old generation.
 */

interface PracticeContext {
  zone: string;
  pointer: GenerationPointer;
}

/**
 * Per container: each practice's zone and generation pointer. Never trusted blindly: every write
 * checks both in its transaction, and a failed check drops the entry.
 */
const contexts = new Map<string, PracticeContext>();

/** Tests and the rebuild start from a fresh read. */
export const forgetReportContexts = () => contexts.clear();

async function contextOf(medspaId: string): Promise<PracticeContext | null> {
  const cached = contexts.get(medspaId);
  if (cached) return cached;
  const { practice, pointer } = await readReportContext(medspaId);
  if (!practice) return null;
  const context = { zone: practice.time_zone, pointer };
  contexts.set(medspaId, context);
  return context;
}

type CountedSource = Exclude<ReportSource, { kind: 'PRACTICE' }> & { eventId?: string };

function changeOf(source: CountedSource, zone: string): SourceChange {
  const recordKey = recordKeyOf(source.kind, source.id);
  if (!source.record) return { recordKey, version: source.version, facts: null };
  if (source.kind === 'APPOINTMENT') return { recordKey, version: source.version, facts: appointmentFacts(source.record, zone) };
  if (source.kind === 'PAYMENT') return { recordKey, version: source.version, facts: paymentFacts(source.record, zone) };
  return { recordKey, version: source.version, facts: saleFacts(source.record, zone) };
}

const unique = <T>(values: Iterable<T>) => [...new Set(values)];

/** Records read per round; a round commits the longest prefix whose writes fit one transaction. */
const UNIT_READ = 40;
const TRANSACTION_LIMIT = 100;
/** Lost races in a row before giving up (the stream then retries the batch, which is safe). */
const MAX_FAILURES = 12;

export interface AggregationStats {
  /** Records given. */
  records: number;
  /** Records that are not report sources (other items, the aggregates' own, stock movements other than sales). */
  ignored: number;
  /** Report sources committed (their ledger decided whether they moved counters). */
  applied: number;
  /** Stream records already applied before (marker found). */
  duplicates: number;
}

type Target = { kind: 'stream' } | { kind: 'rebuild'; generation: string };

/** Applies one practice's sources in order, unit by unit, retrying lost races. */
async function applySources(medspaId: string, sources: readonly CountedSource[], target: Target, stats: AggregationStats, now: () => Date): Promise<void> {
  let pending = [...sources];
  let failures = 0;
  while (pending.length > 0) {
    const context = await contextOf(medspaId);
    if (!context) {
      // No practice item: nothing to count against (it is never deleted, so this is not ours).
      stats.ignored += pending.length;
      return;
    }
    const { zone, pointer } = context;
    let generations: string[];
    if (target.kind === 'rebuild') {
      if (pointer.building !== target.generation) throw new Error(`generation ${target.generation} is no longer being built (live ${pointer.active}, building ${pointer.building})`);
      generations = [target.generation];
    } else {
      generations = unique([pointer.active, ...(pointer.building ? [pointer.building] : [])]);
    }

    const batch = pending.slice(0, UNIT_READ);
    const changes = batch.map((source) => changeOf(source, zone));
    let clientIds = unique(batch.flatMap((source) => (source.kind === 'APPOINTMENT' ? [source.clientId] : [])));
    const eventIds = unique(batch.flatMap((source) => (source.eventId ? [source.eventId] : [])));
    const recordKeys = unique(changes.map((change) => change.recordKey));
    let state = await readUnitState(medspaId, { generations, recordKeys, clientIds, eventIds });
    const fresh = batch.flatMap((source, index) => (source.eventId && state.appliedEvents.has(source.eventId) ? [] : [index]));
    if (fresh.length === 0) {
      stats.duplicates += batch.length;
      pending = pending.slice(batch.length);
      continue;
    }

    // The longest prefix of the fresh records whose writes fit one transaction.
    let take = fresh.length;
    let plans: { generation: string; plan: GenerationPlan }[];
    let chosenEvents: string[];
    for (;;) {
      const chosen = fresh.slice(0, take).map((index) => changes[index]);
      plans = generations.map((generation) => ({ generation, plan: planGeneration(state.byGeneration.get(generation)!, chosen) }));
      const unread = unique(plans.flatMap(({ plan }) => [...plan.clients.keys()])).filter((id) => !clientIds.includes(id));
      if (unread.length > 0) {
        clientIds = [...clientIds, ...unread];
        state = await readUnitState(medspaId, { generations, recordKeys, clientIds, eventIds });
        continue;
      }
      chosenEvents = unique(fresh.slice(0, take).flatMap((index) => (batch[index].eventId ? [batch[index].eventId!] : [])));
      const size = unitOverheadActions(chosenEvents.length) + plans.reduce((sum, { plan }) => sum + planActions(plan), 0);
      if (size <= TRANSACTION_LIMIT || take === 1) break;
      take = Math.max(1, Math.floor(take / 2));
    }
    const consumed = fresh[take - 1] + 1;

    const nothingToWrite = chosenEvents.length === 0 && plans.every(({ plan }) => planActions(plan) === 0);
    let outcome: UnitOutcome;
    try {
      outcome = nothingToWrite ? { ok: true } : await commitUnit({ medspaId, zone, pointerRev: pointer.rev, eventIds: chosenEvents, plans, now: now() });
    } catch (error) {
      // TransactionConflict beyond transact's own retries: another writer is on the same items.
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
      outcome = { ok: false, failed: 'state' };
    }
    if (outcome.ok) {
      stats.applied += take;
      stats.duplicates += consumed - take;
      pending = pending.slice(consumed);
      failures = 0;
      continue;
    }
    failures += 1;
    if (failures > MAX_FAILURES) throw new Error(`report aggregates of practice ${medspaId}: ${failures} lost races in a row (${outcome.failed})`);
    if (outcome.failed === 'context') contexts.delete(medspaId);
    else if (outcome.failed === 'markers') {
      // Applied meanwhile by another consumer of the same records.
      const done = new Set(outcome.eventIds);
      stats.duplicates += pending.filter((source) => source.eventId && done.has(source.eventId)).length;
      pending = pending.filter((source) => !(source.eventId && done.has(source.eventId)));
    } else await jitter(failures);
  }
}

/**
 * The stream consumer's entry point: applies a batch of the table's stream records (wire format,
 * as Lambda or GetRecords deliver them) to the report counters, exactly once per record whatever
 * the retries, replays or duplicates. Throws only when it could not finish; the batch can then be
 * delivered again as is.
 */
export async function applyStreamRecords(records: readonly StreamRecord[], options: { now?: () => Date } = {}): Promise<AggregationStats> {
  const now = options.now ?? (() => clock().now());
  const stats: AggregationStats = { records: records.length, ignored: 0, applied: 0, duplicates: 0 };
  const byPractice = new Map<string, CountedSource[]>();
  for (const record of records) {
    const source = decodeReportSource(record);
    if (!source) {
      stats.ignored += 1;
      continue;
    }
    if (source.kind === 'PRACTICE') {
      // A new zone applies from now on; the cached one is dropped (the transactions check it anyway).
      const cached = contexts.get(source.medspaId);
      if (cached && cached.zone !== source.practice?.time_zone) contexts.delete(source.medspaId);
      stats.ignored += 1;
      continue;
    }
    const list = byPractice.get(source.medspaId) ?? [];
    list.push({ ...source, eventId: record.eventID });
    byPractice.set(source.medspaId, list);
  }
  await Promise.all([...byPractice].map(([medspaId, sources]) => applySources(medspaId, sources, { kind: 'stream' }, stats, now)));
  return stats;
}

// ---- Rebuild -----------------------------------------------------------------------------------

export interface RebuildOptions {
  now?: () => Date;
  /**
   * How long to wait after taking the new generation before reading the sources: stream batches
   * in flight then retry into both generations (their pointer check fails) and the month indexes
   * (eventually consistent) catch up. Default 5 s.
   */
  settleMs?: number;
  /** UTC months (`YYYY-MM`) of source records to read; default from the month before the practice was created to 5 years ahead. */
  fromMonth?: string;
  throughMonth?: string;
  /** Build and compare, then discard the new generation and keep the live one. */
  verifyOnly?: boolean;
  log?: (line: string) => void;
}

export interface CounterDifference {
  kind: ReportDayKind;
  date: string;
  counter: string;
  live: number;
  rebuilt: number;
}

export interface RebuildResult {
  medspaId: string;
  previousGeneration: string;
  generation: string;
  /** The live generation now. */
  live: string;
  months: { from: string; through: string };
  sources: { appointments: number; payments: number; sales: number };
  /** Counters where the rebuilt generation differs from the one that was live (zero and absent are equal). */
  differences: number;
  examples: CounterDifference[];
  deletedItems: number;
}

const newGenerationId = (now: Date) => `${now.getTime().toString(36)}${randomBytes(2).toString('hex')}`;

/** Every counter of a generation in a date range, zeros dropped, by `kind|date|counter`. */
async function countersOf(medspaId: string, generation: string, range: { from: string; to: string }): Promise<Map<string, number>> {
  const counters = new Map<string, number>();
  for (const kind of ['TOTALS', 'CLIENTS'] as const) {
    for (const day of await queryReportDays(medspaId, generation, kind, range)) {
      for (const [name, value] of Object.entries(day.counters)) if (value !== 0) counters.set(`${kind}|${day.date}|${name}`, value);
    }
  }
  return counters;
}

export function compareCounters(live: Map<string, number>, rebuilt: Map<string, number>): CounterDifference[] {
  const differences: CounterDifference[] = [];
  for (const key of unique([...live.keys(), ...rebuilt.keys()]).sort()) {
    const a = live.get(key) ?? 0;
    const b = rebuilt.get(key) ?? 0;
    if (a === b) continue;
    const [kind, date, counter] = key.split('|');
    differences.push({ kind: kind as ReportDayKind, date, counter, live: a, rebuilt: b });
  }
  return differences;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Recomputes every report counter of a practice from its source records (appointments, payments
 * and sales, read by Queries on their month indexes) while the API and the stream keep running:
 *
 * 1. takes a fresh generation in the pointer (`building`); from then on every stream write goes
 *    to the live generation AND the new one (each checks the pointer in its transaction, so no
 *    batch that saw the old pointer can commit);
 * 2. after `settleMs`, reads every source record and counts it into the new generation through
 *    the same ledger as the stream: whichever of the two sees a version first counts it, the
 *    other finds it counted, so nothing is counted twice or missed;
 * 3. compares the new counters with the live ones (the report of differences is the proof);
 * 4. switches the pointer (reports read the new generation at once) and deletes the old one.
 *
 * Re-running after a crash resumes the generation being built. Counts use the practice's current
 * time zone (so this is also how counters follow a zone change).
 */
export async function rebuildAggregates(medspaId: string, options: RebuildOptions = {}): Promise<RebuildResult> {
  const now = options.now ?? (() => clock().now());
  const log = options.log ?? (() => {});
  forgetReportContexts();
  let { practice, pointer } = await readReportContext(medspaId);
  if (!practice) throw new Error(`no practice ${medspaId}`);
  const previous = pointer.active;
  let generation = pointer.building;
  if (generation) {
    log(`resuming generation ${generation} (live: ${previous})`);
  } else {
    generation = newGenerationId(now());
    if (!(await writeGenerationPointer(medspaId, { active: previous, building: generation }, pointer.rev, now().toISOString()))) {
      throw new Error('the report generation pointer moved meanwhile: is another rebuild running?');
    }
    log(`building generation ${generation} (live: ${previous})`);
  }
  await sleep(options.settleMs ?? 5000);
  forgetReportContexts();
  ({ practice, pointer } = await readReportContext(medspaId));

  const months = {
    from: options.fromMonth ?? addMonths(practice!.created_at.slice(0, 7), -1),
    through: options.throughMonth ?? addMonths(now().toISOString().slice(0, 7), 60),
  };
  const sources = await readReportSources(medspaId, monthsBetween(months.from, months.through));
  log(`read ${sources.appointments.length} appointments, ${sources.payments.length} payments, ${sources.sales.length} sales (${months.from}..${months.through})`);
  const counted: CountedSource[] = [
    ...sources.appointments.map((a) => ({ kind: 'APPOINTMENT' as const, medspaId, id: a.id, version: a.version, record: a, clientId: a.client_id })),
    ...sources.payments.map((p) => ({ kind: 'PAYMENT' as const, medspaId, id: p.id, version: p.version ?? 1, record: p })),
    ...sources.sales.map(({ medspa_id: _, ...s }) => ({ kind: 'SALE' as const, medspaId, id: s.id, version: 1, record: s })),
  ];
  // A few units in flight. A client's appointments stay in one lane, so lanes never race on a
  // client visits item (day items take unconditioned ADDs; ledger entries are per record).
  const stats: AggregationStats = { records: counted.length, ignored: 0, applied: 0, duplicates: 0 };
  const lanes = 4;
  const laneOf = (source: CountedSource, index: number) => (source.kind === 'APPOINTMENT' ? parseInt(source.clientId.slice(0, 8), 16) || 0 : index) % lanes;
  await Promise.all(
    Array.from({ length: lanes }, (_, lane) =>
      applySources(medspaId, counted.filter((source, index) => laneOf(source, index) === lane), { kind: 'rebuild', generation: generation! }, stats, now),
    ),
  );

  // Day items can sit a day either side of the UTC months read (local dates).
  const range = { from: addDays(`${months.from}-01`, -1), to: addDays(`${addMonths(months.through, 1)}-01`, 0) };
  const differences = compareCounters(await countersOf(medspaId, previous, range), await countersOf(medspaId, generation, range));
  log(`${differences.length} counters differ between the live generation and the rebuilt one`);

  const years: string[] = [];
  for (let year = Number(range.from.slice(0, 4)); year <= Number(range.to.slice(0, 4)); year += 1) years.push(String(year));
  ({ pointer } = await readReportContext(medspaId));
  const next = options.verifyOnly ? { active: previous, building: null } : { active: generation, building: null };
  if (!(await writeGenerationPointer(medspaId, next, pointer.rev, now().toISOString()))) {
    throw new Error('the report generation pointer moved during the rebuild: is another rebuild running?');
  }
  forgetReportContexts();
  const deletedItems = await deleteGeneration(medspaId, options.verifyOnly ? generation : previous, years);
  log(options.verifyOnly ? `discarded generation ${generation}` : `generation ${generation} is live; deleted ${deletedItems} items of generation ${previous}`);
  return {
    medspaId,
    previousGeneration: previous,
    generation,
    live: next.active,
    months,
    sources: { appointments: sources.appointments.length, payments: sources.payments.length, sales: sources.sales.length },
    differences: differences.length,
    examples: differences.slice(0, 20),
    deletedItems,
  };
}
