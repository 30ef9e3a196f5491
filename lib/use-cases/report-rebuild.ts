import { randomBytes } from 'node:crypto';
import { clock } from '../clock';
import { sleep } from '../retry';
import { addDays, addMonths, monthsBetween } from '../domain/time';
import { deleteGeneration, readReportContext, writeGenerationPointer } from '../db/report-aggregates';
import { queryReportDays } from '../db/report-days';
import { readReportSources } from '../db/report-sources';
import type { ReportDayKind } from '../db/report-days';
import { applySources, forgetReportContexts, newStats, type CountedSource } from './report-units';

/** Recounting a practice's report counters from its source records, beside the live API and stream. */

export interface RebuildOptions {
  now?: () => Date;
  /**
   * How long to wait after taking the new generation before reading the sources: stream batches
   * in flight then retry into both generations (their pointer check fails) and the month indexes
   * (eventually consistent) catch up. Default 5 s.
   */
  settleMs?: number;
  /** Awaited instead of sleeping `settleMs`, once the new generation is taken (a test's own synchronisation). */
  settled?: () => Promise<void>;
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
  sources: { appointments: number; payments: number; sales: number; plans: number };
  /** Counters where the rebuilt generation differs from the one that was live (zero and absent are equal). */
  differences: number;
  examples: CounterDifference[];
  deletedItems: number;
}

const newGenerationId = (now: Date) => `${now.getTime().toString(36)}${randomBytes(2).toString('hex')}`;

/** Every counter of a generation in a date range, zeros dropped, by `kind|date|counter`. */
async function countersOf(
  medspaId: string,
  generation: string,
  range: { from: string; to: string },
): Promise<Map<string, number>> {
  const counters = new Map<string, number>();
  for (const kind of ['TOTALS', 'CLIENTS'] as const) {
    for (const day of await queryReportDays(medspaId, generation, kind, range)) {
      for (const [name, value] of Object.entries(day.counters))
        if (value !== 0) counters.set(`${kind}|${day.date}|${name}`, value);
    }
  }
  return counters;
}

export function compareCounters(live: Map<string, number>, rebuilt: Map<string, number>): CounterDifference[] {
  const differences: CounterDifference[] = [];
  for (const key of [...new Set([...live.keys(), ...rebuilt.keys()])].sort()) {
    const a = live.get(key) ?? 0;
    const b = rebuilt.get(key) ?? 0;
    if (a === b) continue;
    const [kind, date, counter] = key.split('|');
    differences.push({ kind: kind as ReportDayKind, date, counter, live: a, rebuilt: b });
  }
  return differences;
}

/**
 * Recomputes every report counter of a practice from its source records (appointments, payments,
 * sales and plans sold, read by Queries on their month indexes) while the API and the stream keep running:
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
    if (
      !(await writeGenerationPointer(
        medspaId,
        { active: previous, building: generation },
        pointer.rev,
        now().toISOString(),
      ))
    ) {
      throw new Error('the report generation pointer moved meanwhile: is another rebuild running?');
    }
    log(`building generation ${generation} (live: ${previous})`);
  }
  await (options.settled ? options.settled() : sleep(options.settleMs ?? 5000));
  forgetReportContexts();
  ({ practice, pointer } = await readReportContext(medspaId));

  const months = {
    from: options.fromMonth ?? addMonths(practice!.created_at.slice(0, 7), -1),
    through: options.throughMonth ?? addMonths(now().toISOString().slice(0, 7), 60),
  };
  const sources = await readReportSources(medspaId, monthsBetween(months.from, months.through));
  log(
    `read ${sources.appointments.length} appointments, ${sources.payments.length} payments, ${sources.sales.length} sales, ${sources.plans.length} plans sold (${months.from}..${months.through})`,
  );
  const counted: CountedSource[] = [
    ...sources.appointments.map((a) => ({
      kind: 'APPOINTMENT' as const,
      medspaId,
      id: a.id,
      version: a.version,
      record: a,
      clientId: a.client_id,
    })),
    ...sources.payments.map((p) => ({
      kind: 'PAYMENT' as const,
      medspaId,
      id: p.id,
      version: p.version ?? 1,
      record: p,
    })),
    ...sources.sales.map(({ medspa_id: _, ...s }) => ({
      kind: 'SALE' as const,
      medspaId,
      id: s.id,
      version: 1,
      record: s,
    })),
    ...sources.plans.map((sale) => ({
      kind: 'PLAN_SALE' as const,
      medspaId,
      id: sale.client_plan_id,
      version: 1,
      record: sale,
    })),
  ];
  // A few units in flight. A client's appointments stay in one lane, so lanes never race on a
  // client visits item (day items take unconditioned ADDs; ledger entries are per record).
  const stats = newStats(counted.length);
  const lanes = 4;
  const laneOf = (source: CountedSource, index: number) =>
    (source.kind === 'APPOINTMENT' ? parseInt(source.clientId.slice(0, 8), 16) || 0 : index) % lanes;
  const unapplied = await Promise.all(
    Array.from({ length: lanes }, (_, lane) =>
      applySources(
        medspaId,
        counted.filter((source, index) => laneOf(source, index) === lane),
        { kind: 'rebuild', generation: generation! },
        stats,
      ),
    ),
  );
  // Nothing is switched or deleted: re-running resumes this generation.
  const failed = unapplied.find((lane) => lane !== null);
  if (failed) throw failed.error;

  // Day items can sit a day either side of the UTC months read (local dates).
  const range = { from: addDays(`${months.from}-01`, -1), to: addDays(`${addMonths(months.through, 1)}-01`, 0) };
  const differences = compareCounters(
    await countersOf(medspaId, previous, range),
    await countersOf(medspaId, generation, range),
  );
  log(`${differences.length} counters differ between the live generation and the rebuilt one`);

  const years: string[] = [];
  for (let year = Number(range.from.slice(0, 4)); year <= Number(range.to.slice(0, 4)); year += 1)
    years.push(String(year));
  ({ pointer } = await readReportContext(medspaId));
  const next = options.verifyOnly ? { active: previous, building: null } : { active: generation, building: null };
  if (!(await writeGenerationPointer(medspaId, next, pointer.rev, now().toISOString()))) {
    throw new Error('the report generation pointer moved during the rebuild: is another rebuild running?');
  }
  forgetReportContexts();
  const deletedItems = await deleteGeneration(medspaId, options.verifyOnly ? generation : previous, years);
  log(
    options.verifyOnly
      ? `discarded generation ${generation}`
      : `generation ${generation} is live; deleted ${deletedItems} items of generation ${previous}`,
  );
  return {
    medspaId,
    previousGeneration: previous,
    generation,
    live: next.active,
    months,
    sources: {
      appointments: sources.appointments.length,
      payments: sources.payments.length,
      sales: sources.sales.length,
      plans: sources.plans.length,
    },
    differences: differences.length,
    examples: differences.slice(0, 20),
    deletedItems,
  };
}
