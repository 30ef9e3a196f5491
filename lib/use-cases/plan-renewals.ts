import { readTimePartitions } from '../db/minute-partitions';
import {
  advancePlanSweepCheckpoint,
  commitPlanChange,
  plansDueIn,
  readPlanSweepCheckpoint,
  type BalanceMove,
} from '../db/plan-renewals';
import {
  clientPlanChangeAction,
  findClientPlan,
  findPlan,
  planStatusWrite,
  type ClientPlanWithBalances,
} from '../db/plans';
import { getPractice } from '../db/practices';
import {
  addHoursTo,
  dueAction,
  hoursBetween,
  hourWindow,
  nextTerm,
  planDueHour,
  type PlanDueAction,
} from '../domain/plan-renewals';
import { applyStep, balanceStep, type LedgerKind } from '../domain/plans';
import type { ClientPlanRecord, PlanBalanceRecord, PlanLedgerRecord, PlanRecord } from '../domain/records';
import { localDateOf } from '../domain/time';
import type { TransactItem } from '../db/transact';
import { retry } from '../retry';
import { ledgerEntry } from './plan-bookings';

/**
 * Renewals and expiry of client plans (API reference, section 12; docs/decisions/0026): every
 * hour, the plans on the due index in the hours since the checkpoint are read again, and on their
 * practice-local date a membership's next term is granted (the ended term's units expired first
 * unless it rolls over), a membership cancelled at term end is cancelled, a package expires. Each
 * in ONE transaction on the versions read: a sweep run twice, or two at once, does it once.
 */

export interface PlanSweepOptions {
  /** Hours before the checkpoint read again (a resume arms its plan in the current hour, which may have been swept). */
  lookbackHours?: number;
  /** With no checkpoint yet, how far back the first sweep starts. */
  firstRunHours?: number;
  /** At most this many hour partitions per run; a sweep that fell behind catches up over several runs. */
  maxHours?: number;
}

export interface PlanSweepResult {
  from: string | null;
  through: string | null;
  renewed: number;
  cancelled: number;
  expired: number;
  /** Not due yet on their practice's date (the practice's zone moved west): put back on the index at their hour. */
  rearmed: number;
  /** Already done by another sweep, or changed since the index was read (paused, cancelled, renewed). */
  skipped: number;
}

type Outcome = 'renewed' | 'cancelled' | 'expired' | 'rearmed' | 'skipped';

const PARALLEL_WRITES = 25;
/** A booking moving a balance between the read and the write costs a try; the next run picks up the rest. */
const ATTEMPTS = 8;

/** Reads shared by the due plans of one run: each practice and each plan sold, once. */
function runReads() {
  const practices = new Map<string, ReturnType<typeof getPractice>>();
  const plans = new Map<string, Promise<PlanRecord | null>>();
  return {
    practice: (medspaId: string) =>
      practices.get(medspaId) ?? practices.set(medspaId, getPractice(medspaId)).get(medspaId)!,
    plan: (medspaId: string, planId: string) => {
      const key = `${medspaId}|${planId}`;
      return plans.get(key) ?? plans.set(key, findPlan(medspaId, planId)).get(key)!;
    },
  };
}

/** Ledger entries one after another on one balance (each `balance_after` follows the previous). */
function chainEntries(
  balance: PlanBalanceRecord,
  steps: ReadonlyArray<{ kind: LedgerKind; quantity: number; at: string; reason: string }>,
): BalanceMove | null {
  let current = balance;
  const entries: PlanLedgerRecord[] = [];
  for (const step of steps) {
    if (step.quantity <= 0) continue;
    const entry = ledgerEntry(current, step.kind, step.quantity, step.at, { reason: step.reason });
    if (!entry) return null;
    entries.push(entry);
    current = { ...current, ...applyStep(current, balanceStep(step.kind, step.quantity))! };
  }
  return entries.length ? { balance, entries } : null;
}

/** The expire entries that take every remaining unit (reserved units stay reserved). */
const expireAll = (balances: readonly PlanBalanceRecord[], at: string, reason: string): BalanceMove[] =>
  balances.flatMap((b) => chainEntries(b, [{ kind: 'expire', quantity: b.remaining, at, reason }]) ?? []);

/**
 * The expiry a millisecond before the grant: the ledger is ordered by `created_at`, so it lists
 * them in the order they apply.
 */
const justBefore = (at: string) => new Date(Date.parse(at) - 1).toISOString();

interface PlanChange {
  writes: TransactItem[];
  moves: BalanceMove[];
}

/**
 * A membership's next term: per benefit, unless it rolls over, the ended term's remaining units
 * expire, then the term's units are granted (one update of the balance); the plan's term and its
 * next due hour move on the version read.
 */
function renewal(
  { plan, balances }: ClientPlanWithBalances,
  sold: PlanRecord & { term_months: number },
  today: string,
  zone: string,
  now: Date,
): PlanChange {
  const at = now.toISOString();
  const term = nextTerm(plan.starts_on, sold.term_months, plan.current_term!, today);
  const reason = `term ${term.starts_on}..${term.ends_on}`;
  const moves = sold.benefits.flatMap((benefit) => {
    const balance = balances.find((b) => b.service_id === benefit.service_id);
    if (!balance) return [];
    const move = chainEntries(balance, [
      { kind: 'expire', quantity: sold.rollover ? 0 : balance.remaining, at: justBefore(at), reason: 'term ended' },
      { kind: 'grant', quantity: benefit.quantity, at, reason },
    ]);
    return move ? [move] : [];
  });
  const dueHour = planDueHour({ ...plan, current_term: term }, zone, now);
  return { writes: [clientPlanChangeAction(plan, { current_term: term }, dueHour, at)], moves };
}

const OUTCOMES: Record<PlanDueAction, Outcome> = { renew: 'renewed', cancel: 'cancelled', expire: 'expired' };

/** One due plan, read again and settled on its versions; a lost race reads again and decides again. */
function settle(due: ClientPlanRecord, reads: ReturnType<typeof runReads>, now: Date): Promise<Outcome> {
  const at = now.toISOString();
  return retry<Outcome>(
    async () => {
      const [found, practice] = await Promise.all([
        findClientPlan(due.medspa_id, due.id),
        reads.practice(due.medspa_id),
      ]);
      if (!found || !practice) return { done: 'skipped' };
      const { plan, balances } = found;
      const zone = practice.time_zone;
      const today = localDateOf(at, zone);
      const action = dueAction(plan, today);
      let change: PlanChange;
      if (action === null) {
        // Changed since the index copy: its own write placed it. Unchanged: its zone moved west.
        if (plan.version !== due.version) return { done: 'skipped' };
        change = { writes: [clientPlanChangeAction(plan, {}, planDueHour(plan, zone, now), at)], moves: [] };
      } else if (action === 'renew') {
        const sold = await reads.plan(plan.medspa_id, plan.plan_id);
        if (!sold?.term_months || !plan.current_term) return { done: 'skipped' };
        change = renewal(found, { ...sold, term_months: sold.term_months }, today, zone, now);
      } else {
        const reason = action === 'cancel' ? 'membership ended (cancelled at term end)' : 'package expired';
        change = {
          writes: await planStatusWrite(plan, action === 'cancel' ? 'cancelled' : 'expired', at),
          moves: expireAll(balances, at, reason),
        };
      }
      if (!(await commitPlanChange(change.writes, change.moves))) return { retry: 'now' };
      return { done: action ? OUTCOMES[action] : 'rearmed' };
    },
    {
      attempts: ATTEMPTS,
      exhausted: () => {
        // The checkpoint stays: the next run reads this hour again.
        throw new Error(`client plan ${due.id}: its balances kept moving; left for the next sweep`);
      },
    },
  );
}

/**
 * One sweep at `now` (the clock is the caller's): every plan due in the hours from the checkpoint
 * to now's hour is settled, then the checkpoint moves. A failure leaves the checkpoint where it
 * was, so the next run reads the window again (harmless: what was done is off the index).
 */
export async function sweepPlans(now: Date, options: PlanSweepOptions = {}): Promise<PlanSweepResult> {
  const result: PlanSweepResult = {
    from: null,
    through: null,
    renewed: 0,
    cancelled: 0,
    expired: 0,
    rearmed: 0,
    skipped: 0,
  };
  const window = hourWindow(await readPlanSweepCheckpoint(), now, {
    lookbackHours: options.lookbackHours ?? 2,
    firstRunHours: options.firstRunHours ?? 48,
    maxHours: options.maxHours ?? 24 * 7,
  });
  if (!window) return result;
  const hours = Array.from({ length: hoursBetween(window.from, window.through) + 1 }, (_, i) =>
    addHoursTo(window.from, i),
  );
  // The index may briefly hold a plan in two hours (replication): each once.
  const dues = [
    ...new Map((await readTimePartitions(hours, plansDueIn)).map((p) => [`${p.medspa_id}|${p.id}`, p])).values(),
  ];
  const reads = runReads();
  for (let i = 0; i < dues.length; i += PARALLEL_WRITES) {
    const outcomes = await Promise.all(dues.slice(i, i + PARALLEL_WRITES).map((due) => settle(due, reads, now)));
    for (const outcome of outcomes) result[outcome] += 1;
  }
  await advancePlanSweepCheckpoint(window.through, now.toISOString());
  return { ...result, ...window };
}
