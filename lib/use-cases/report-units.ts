import {
  appointmentFacts,
  paymentFacts,
  planActions,
  planSaleFacts,
  planGeneration,
  recordKeyOf,
  saleFacts,
  type GenerationPlan,
  type SourceChange,
} from '../domain/report-aggregates';
import {
  commitUnit,
  readReportContext,
  readUnitState,
  UNIT_OVERHEAD_ACTIONS,
  type GenerationPointer,
  type UnitOutcome,
  type UnitState,
  type UnitStateRequest,
} from '../db/report-aggregates';
import type { ReportSource } from '../db/report-sources';
import { BoundedCache } from '../cache';
import { isDataFailure } from '../db/failure';
import { MAX_TRANSACTION_ACTIONS } from '../db/transact';
import { jitter } from '../retry';

/**
 * Counting report sources into the counters, the one path of the stream consumer
 * (./report-aggregation.ts) and the rebuild (./report-rebuild.ts). A practice's sources are taken
 * in order, in rounds of three steps:
 *
 * 1. read the unit: up to 40 records, with their ledger entries and client visit items in one
 *    BatchGetItem (`readUnit`);
 * 2. fit it into one transaction: the longest prefix of the records whose writes fit 100 actions
 *    (`fitTransaction`);
 * 3. commit it (`commit`) or, when a race was lost (nothing written), deal with the cause and go
 *    round again (`recover`).
 *
 * A record counts once whatever the retries, replays or racing consumers: the ledger holds the
 * version each record was counted at (a version it holds is skipped), and the transaction writes
 * each ledger entry and client item on the state it read. A record whose facts did not change (a
 * note edited) writes nothing at all.
 */

export interface AggregationStats {
  /** Records given. */
  records: number;
  /** Records that are not report sources (other items, the aggregates' own, stock movements other than sales). */
  ignored: number;
  /** Report sources committed (their ledger decided whether they moved counters). */
  applied: number;
  /** Records already counted at their version or a later one (a retry, a replay, an older copy). */
  duplicates: number;
}

export const newStats = (records: number): AggregationStats => ({ records, ignored: 0, applied: 0, duplicates: 0 });

/** A source to count (the practice's own changes are context, not counted). */
export type CountedSource = Exclude<ReportSource, { kind: 'PRACTICE' }>;

/** Where the counts go: the stream writes the live generation and any being built; a rebuild only its own. */
export type Target = { kind: 'stream' } | { kind: 'rebuild'; generation: string };

/** What a practice's sources left unapplied (in their order) and why; null when every one is done. */
export type Unapplied<S> = { sources: S[]; error: unknown } | null;

// ---- The practice's zone and generation pointer, per container -------------------------------

interface PracticeContext {
  zone: string;
  pointer: GenerationPointer;
}

/**
 * Never trusted blindly: every write checks both in its transaction, and a failed check drops the
 * entry. Bounded: one worker container sees many practices.
 */
const contexts = new BoundedCache<string, PracticeContext>({ max: 1000 });

/** Tests and the rebuild start from a fresh read. */
export const forgetReportContexts = () => contexts.clear();

/** A practice changed (its stream record): a new zone applies from now on, so a cached other one goes. */
export function practiceChanged(medspaId: string, zone: string | undefined) {
  if (contexts.get(medspaId)?.zone !== zone) contexts.delete(medspaId);
}

async function contextOf(medspaId: string): Promise<PracticeContext | null> {
  const cached = contexts.get(medspaId);
  if (cached) return cached;
  const { practice, pointer } = await readReportContext(medspaId);
  if (!practice) return null;
  const context = { zone: practice.time_zone, pointer };
  contexts.set(medspaId, context);
  return context;
}

// ---- The steps of a round ----------------------------------------------------------------------

const unique = <T>(values: Iterable<T>) => [...new Set(values)];

/** Records read per round; a round commits the longest prefix whose writes fit one transaction. */
const UNIT_READ = 40;
/** Lost races in a row before giving up (the records are then retried by their caller, which is safe). */
const MAX_LOST_RACES = 12;

function generationsFor(pointer: GenerationPointer, target: Target): string[] {
  if (target.kind === 'stream') return unique([pointer.active, ...(pointer.building ? [pointer.building] : [])]);
  if (pointer.building !== target.generation)
    throw new Error(
      `generation ${target.generation} is no longer being built (live ${pointer.active}, building ${pointer.building})`,
    );
  return [target.generation];
}

function changeOf(source: CountedSource, zone: string): SourceChange {
  const recordKey = recordKeyOf(source.kind, source.id);
  if (!source.record) return { recordKey, version: source.version, facts: null };
  if (source.kind === 'APPOINTMENT')
    return { recordKey, version: source.version, facts: appointmentFacts(source.record, zone) };
  if (source.kind === 'PAYMENT')
    return { recordKey, version: source.version, facts: paymentFacts(source.record, zone) };
  if (source.kind === 'PLAN_SALE')
    return { recordKey, version: source.version, facts: planSaleFacts(source.record, zone) };
  return { recordKey, version: source.version, facts: saleFacts(source.record, zone) };
}

/** A round's records as read: their changes and what the table holds for them. */
interface Unit {
  sources: readonly CountedSource[];
  changes: SourceChange[];
  request: UnitStateRequest;
  state: UnitState;
}

/** Step 1: the unit's ledger entries and client visit items, in one batched read. */
async function readUnit(
  medspaId: string,
  sources: readonly CountedSource[],
  context: PracticeContext,
  target: Target,
): Promise<Unit> {
  const changes = sources.map((source) => changeOf(source, context.zone));
  const request: UnitStateRequest = {
    generations: generationsFor(context.pointer, target),
    recordKeys: unique(changes.map((change) => change.recordKey)),
    clientIds: unique(sources.flatMap((source) => (source.kind === 'APPOINTMENT' ? [source.clientId] : []))),
  };
  return { sources, changes, request, state: await readUnitState(medspaId, request) };
}

/** What one transaction commits: the first `take` records of a unit. */
interface Fitted {
  take: number;
  plans: { generation: string; plan: GenerationPlan }[];
}

/**
 * Step 2: the longest prefix of the unit's records whose writes fit one transaction, halved
 * until it fits (one record always does). A plan may touch clients the unit did not read (a
 * ledger entry counted under an appointment's former client): they are read and it plans again.
 */
async function fitTransaction(medspaId: string, unit: Unit): Promise<Fitted> {
  let { request, state } = unit;
  let take = unit.sources.length;
  for (;;) {
    const changes = unit.changes.slice(0, take);
    const plans = request.generations.map((generation) => ({
      generation,
      plan: planGeneration(state.byGeneration.get(generation)!, changes),
    }));
    const unread = unique(plans.flatMap(({ plan }) => [...plan.clients.keys()])).filter(
      (id) => !request.clientIds.includes(id),
    );
    if (unread.length > 0) {
      request = { ...request, clientIds: [...request.clientIds, ...unread] };
      state = await readUnitState(medspaId, request);
      continue;
    }
    const size = UNIT_OVERHEAD_ACTIONS + plans.reduce((sum, { plan }) => sum + planActions(plan), 0);
    if (size <= MAX_TRANSACTION_ACTIONS || take === 1) return { take, plans };
    take = Math.max(1, Math.floor(take / 2));
  }
}

/** Step 3: one TransactWriteItems, unless there is nothing to write; a lost race comes back as the outcome. */
async function commit(medspaId: string, context: PracticeContext, fitted: Fitted): Promise<UnitOutcome> {
  if (fitted.plans.every(({ plan }) => planActions(plan) === 0)) return { ok: true };
  try {
    return await commitUnit({ medspaId, zone: context.zone, pointerRev: context.pointer.rev, plans: fitted.plans });
  } catch (error) {
    // TransactionConflict beyond transact's own retries: another writer is on the same items.
    if (isDataFailure(error, 'busy')) return { ok: false, failed: 'state' };
    throw error;
  }
}

type LostRace = Extract<UnitOutcome, { ok: false }>;

/** A round: how many of the pending records it settled and how, or the race it lost (nothing written). */
type Round = { ok: true; consumed: number; applied: number; duplicates: number } | LostRace;

async function runRound(
  medspaId: string,
  pending: readonly CountedSource[],
  context: PracticeContext,
  target: Target,
): Promise<Round> {
  const unit = await readUnit(medspaId, pending.slice(0, UNIT_READ), context, target);
  const fitted = await fitTransaction(medspaId, unit);
  const outcome = await commit(medspaId, context, fitted);
  // Skipped: records whose version the ledger already held (the same in every generation written).
  const duplicates = fitted.plans[0]?.plan.skipped ?? 0;
  return outcome.ok ? { ok: true, consumed: fitted.take, applied: fitted.take - duplicates, duplicates } : outcome;
}

/** After a lost race: the records still pending once its cause is dealt with. */
async function recover<S extends CountedSource>(
  medspaId: string,
  pending: S[],
  lost: LostRace,
  lostRaces: number,
): Promise<S[]> {
  switch (lost.failed) {
    case 'context':
      // The pointer or the zone moved: read them again.
      contexts.delete(medspaId);
      return pending;
    case 'state':
      // A ledger entry or client item changed since it was read: read again, after a pause.
      await jitter(lostRaces);
      return pending;
  }
}

/**
 * Applies one practice's sources in order, round by round. Answers what it could not apply (the
 * rest, in order, from the first record not committed) rather than throwing, so the stream can
 * name those records alone as failed.
 */
export async function applySources<S extends CountedSource>(
  medspaId: string,
  sources: readonly S[],
  target: Target,
  stats: AggregationStats,
): Promise<Unapplied<S>> {
  let pending = [...sources];
  let lostRaces = 0;
  try {
    while (pending.length > 0) {
      const context = await contextOf(medspaId);
      if (!context) {
        // No practice item: nothing to count against (it is never deleted, so this is not ours).
        stats.ignored += pending.length;
        return null;
      }
      const round = await runRound(medspaId, pending, context, target);
      if (round.ok) {
        stats.applied += round.applied;
        stats.duplicates += round.duplicates;
        pending = pending.slice(round.consumed);
        lostRaces = 0;
        continue;
      }
      lostRaces += 1;
      if (lostRaces > MAX_LOST_RACES) {
        throw Object.assign(
          new Error(`report aggregates of practice ${medspaId}: ${lostRaces} lost races in a row (${round.failed})`),
          { name: 'LostRaces' },
        );
      }
      pending = await recover(medspaId, pending, round, lostRaces);
    }
    return null;
  } catch (error) {
    return { sources: pending, error };
  }
}
