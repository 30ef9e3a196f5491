import type { AppointmentRecord, PlanSaleRecord, CountedFacts, PaymentRecord, StockAdjustmentRecord } from './records';
import { localDateOf } from './time';

export type { CountedFacts } from './records';

/**
 * Report counters, pure: what a source record (appointment, payment, retail sale, plan sold) contributes to
 * the per-day counters, and how a change moves them against the generation's ledger, never
 * against the stream's old image (docs/decisions/0004-report-counters-exactly-once.md). No I/O
 * and no clock: the stream consumer and the rebuild (lib/use-cases/report-units.ts) read the
 * state, call `planGeneration`, and write its result in one transaction.
 */

/** What a generation has counted for one record: `facts` null counts nothing (deleted, or never counted). */
export interface LedgerEntry {
  version: number;
  facts: CountedFacts | null;
}

/** A record as it is now (from the stream's image, or read by the rebuild), at `version`. */
export interface SourceChange {
  /** `APPOINTMENT#{id}`, `PAYMENT#{id}`, `SALE#{id}` or `PLAN_SALE#{id}` (a client plan). */
  recordKey: string;
  version: number;
  /** null: the record is gone (deleted). */
  facts: CountedFacts | null;
}

export const recordKeyOf = (kind: 'APPOINTMENT' | 'PAYMENT' | 'SALE' | 'PLAN_SALE', id: string) => `${kind}#${id}`;

export const appointmentFacts = (a: AppointmentRecord, zone: string): CountedFacts => ({
  kind: 'appointment',
  date: localDateOf(a.scheduled_at, zone),
  client_id: a.client_id,
  provider_id: a.provider_id,
  service_id: a.service_id,
  status: a.status,
  price_cents: a.price_cents,
  duration_minutes: a.duration_minutes,
});

/** Every payment kind (payment, deposit, fee, plan) is money collected (API reference, section 11). */
export const paymentFacts = (p: PaymentRecord, zone: string): CountedFacts => ({
  kind: 'payment',
  date: localDateOf(p.created_at, zone),
  amount_cents: p.amount_cents,
});

/** A sale's retail revenue is -delta x unit price (sales have negative deltas); other movements are not revenue. */
export const saleFacts = (e: Omit<StockAdjustmentRecord, 'medspa_id'>, zone: string): CountedFacts | null =>
  e.reason === 'sale'
    ? { kind: 'sale', date: localDateOf(e.created_at, zone), amount_cents: -e.delta * (e.unit_price_cents ?? 0) }
    : null;

/**
 * A plan sold is revenue of its sale day: the price as sold, on the local date of the sale, whether
 * or not a payment came with it (the payment is money collected). The sale is an item of its own,
 * never changed: the client plan's later changes (pause, cancel, renewal) sell nothing.
 */
export const planSaleFacts = (p: PlanSaleRecord, zone: string): CountedFacts => ({
  kind: 'plan',
  date: localDateOf(p.created_at, zone),
  amount_cents: p.price_cents,
});

// ---- Counter names -------------------------------------------------------------------------

/** Counters of a TOTALS day item (top-level number attributes, so a change is an atomic ADD). */
export const TOTALS = {
  /** Appointments scheduled that day, whatever their status (moved by reschedules, removed by deletes). */
  booked: 'booked',
  completed: 'completed',
  cancelled: 'cancelled',
  no_show: 'no_show',
  /** duration_minutes of the completed ones. */
  booked_minutes: 'booked_minutes',
  /** price_cents of the completed ones. */
  service_cents: 'service_cents',
  retail_cents: 'retail_cents',
  /** price_cents of the plans sold. */
  plans_cents: 'plans_cents',
  collected_cents: 'collected_cents',
} as const;

export const PROVIDER_MEASURES = ['completed', 'revenue_cents', 'cancelled', 'no_show', 'booked_minutes'] as const;
export type ProviderMeasure = (typeof PROVIDER_MEASURES)[number];
export const SERVICE_MEASURES = ['booked', 'completed', 'cancelled', 'revenue_cents'] as const;
export type ServiceMeasure = (typeof SERVICE_MEASURES)[number];

/** Per-provider and per-service counters live in the day item as `p#{id}#{measure}` / `s#{id}#{measure}`. */
export const providerCounter = (providerId: string, measure: ProviderMeasure) => `p#${providerId}#${measure}`;
export const serviceCounter = (serviceId: string, measure: ServiceMeasure) => `s#${serviceId}#${measure}`;
/** CLIENTS day item: completed visits of one client that day, and how many clients had their first completed visit that day. */
export const clientSeenCounter = (clientId: string) => `c#${clientId}`;
export const FIRST_VISITS = 'first_visits';

/** The per-provider (`p`), per-service (`s`) or per-client (`c`) counters of a day item, by id. */
export function countersByDimension(
  counters: Record<string, number>,
  dimension: 'p' | 's' | 'c',
): Map<string, Record<string, number>> {
  const found = new Map<string, Record<string, number>>();
  const prefix = `${dimension}#`;
  for (const [name, value] of Object.entries(counters)) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const cut = rest.indexOf('#');
    const id = cut < 0 ? rest : rest.slice(0, cut);
    const measure = cut < 0 ? 'count' : rest.slice(cut + 1);
    const entry = found.get(id) ?? {};
    entry[measure] = (entry[measure] ?? 0) + value;
    found.set(id, entry);
  }
  return found;
}

// ---- Contributions -------------------------------------------------------------------------

/** Counter deltas per practice-local date, for one kind of day item. */
export type DayDeltas = Map<string, Record<string, number>>;

const bump = (deltas: DayDeltas, date: string, name: string, by: number) => {
  if (by === 0) return;
  const day = deltas.get(date) ?? {};
  day[name] = (day[name] ?? 0) + by;
  deltas.set(date, day);
};

const MONEY_COUNTER = {
  payment: TOTALS.collected_cents,
  sale: TOTALS.retail_cents,
  plan: TOTALS.plans_cents,
} as const;

/** Adds `sign` x what `facts` contribute to the TOTALS counters and to completed visits. */
function contribute(
  facts: CountedFacts | null,
  sign: 1 | -1,
  totals: DayDeltas,
  visits: { client_id: string; date: string; n: number }[],
): void {
  if (!facts) return;
  const { date } = facts;
  if (facts.kind !== 'appointment') {
    bump(totals, date, MONEY_COUNTER[facts.kind], sign * facts.amount_cents);
    return;
  }
  const { provider_id: p, service_id: s } = facts;
  bump(totals, date, TOTALS.booked, sign);
  bump(totals, date, serviceCounter(s, 'booked'), sign);
  if (facts.status === 'completed') {
    bump(totals, date, TOTALS.completed, sign);
    bump(totals, date, TOTALS.service_cents, sign * facts.price_cents);
    bump(totals, date, TOTALS.booked_minutes, sign * facts.duration_minutes);
    bump(totals, date, providerCounter(p, 'completed'), sign);
    bump(totals, date, providerCounter(p, 'revenue_cents'), sign * facts.price_cents);
    bump(totals, date, providerCounter(p, 'booked_minutes'), sign * facts.duration_minutes);
    bump(totals, date, serviceCounter(s, 'completed'), sign);
    bump(totals, date, serviceCounter(s, 'revenue_cents'), sign * facts.price_cents);
    visits.push({ client_id: facts.client_id, date, n: sign });
  } else if (facts.status === 'cancelled') {
    bump(totals, date, TOTALS.cancelled, sign);
    bump(totals, date, providerCounter(p, 'cancelled'), sign);
    bump(totals, date, serviceCounter(s, 'cancelled'), sign);
  } else if (facts.status === 'no_show') {
    bump(totals, date, TOTALS.no_show, sign);
    bump(totals, date, providerCounter(p, 'no_show'), sign);
  }
}

/** A client's completed visits per practice-local date (positive counts only). */
export type VisitDates = Record<string, number>;

/** The earliest date with a completed visit, or null. */
export function firstVisit(dates: VisitDates): string | null {
  let first: string | null = null;
  for (const [date, n] of Object.entries(dates)) if (n > 0 && (first === null || date < first)) first = date;
  return first;
}

const sameFacts = (a: CountedFacts | null, b: CountedFacts | null) => JSON.stringify(a) === JSON.stringify(b);

// ---- Planning one generation's writes ------------------------------------------------------

/** What one generation holds for the records and clients a unit of changes touches, as read. */
export interface GenerationState {
  /** By record key; absent from the map or null: nothing counted yet. */
  ledger: Map<string, LedgerEntry | null>;
  /** By client id, with the item's revision (for the write's condition); null: no item yet. */
  clients: Map<string, { dates: VisitDates; rev: number } | null>;
}

export interface GenerationPlan {
  /** Ledger entries to write, each conditioned on the version read (null: on absence). */
  ledger: Map<string, { expectedVersion: number | null; entry: LedgerEntry }>;
  /** Client visit items to write, each conditioned on the revision read (null: on absence). */
  clients: Map<string, { expectedRev: number | null; dates: VisitDates; rev: number }>;
  /** ADDs on TOTALS day items (no zero deltas). */
  totals: DayDeltas;
  /** ADDs on CLIENTS day items (no zero deltas). */
  clientDays: DayDeltas;
  /** Changes that moved something, and changes already counted (stale, replayed). */
  applied: number;
  skipped: number;
}

/**
 * Applies `changes` in order to what the generation has counted (`state`): each change newer
 * than its ledger entry replaces the counted facts (subtract the old, add the new); older or
 * equal versions are skipped. Returns the writes, with the conditions that make them valid only
 * on the state read.
 */
export function planGeneration(state: GenerationState, changes: readonly SourceChange[]): GenerationPlan {
  const ledger = new Map<string, { expectedVersion: number | null; entry: LedgerEntry }>();
  const totals: DayDeltas = new Map();
  const visits: { client_id: string; date: string; n: number }[] = [];
  let applied = 0;
  let skipped = 0;
  for (const change of changes) {
    const read = state.ledger.get(change.recordKey) ?? null;
    const current = ledger.get(change.recordKey)?.entry ?? read;
    if (current && change.version <= current.version) {
      skipped += 1;
      continue;
    }
    applied += 1;
    // Same facts at a newer version (a note edited, a reminder requested): nothing to count or record.
    if (current && sameFacts(current.facts, change.facts)) continue;
    contribute(current?.facts ?? null, -1, totals, visits);
    contribute(change.facts, 1, totals, visits);
    ledger.set(change.recordKey, {
      expectedVersion: read?.version ?? null,
      entry: { version: change.version, facts: change.facts },
    });
  }

  const clientDays: DayDeltas = new Map();
  const clients = new Map<string, { expectedRev: number | null; dates: VisitDates; rev: number }>();
  const byClient = new Map<string, { date: string; n: number }[]>();
  for (const visit of visits) byClient.set(visit.client_id, [...(byClient.get(visit.client_id) ?? []), visit]);
  for (const [clientId, moves] of byClient) {
    const read = state.clients.get(clientId) ?? null;
    const dates: VisitDates = { ...(read?.dates ?? {}) };
    for (const { date, n } of moves) {
      dates[date] = (dates[date] ?? 0) + n;
      if (dates[date] === 0) delete dates[date];
      bump(clientDays, date, clientSeenCounter(clientId), n);
    }
    const before = firstVisit(read?.dates ?? {});
    const after = firstVisit(dates);
    if (before !== after) {
      if (before) bump(clientDays, before, FIRST_VISITS, -1);
      if (after) bump(clientDays, after, FIRST_VISITS, 1);
    }
    clients.set(clientId, { expectedRev: read?.rev ?? null, dates, rev: (read?.rev ?? 0) + 1 });
  }
  return { ledger, clients, totals: pruned(totals), clientDays: pruned(clientDays), applied, skipped };
}

/** Drops counters whose deltas cancelled out, and days left with none. */
function pruned(deltas: DayDeltas): DayDeltas {
  const kept: DayDeltas = new Map();
  for (const [date, counters] of deltas) {
    const nonZero = Object.fromEntries(Object.entries(counters).filter(([, n]) => n !== 0));
    if (Object.keys(nonZero).length) kept.set(date, nonZero);
  }
  return kept;
}

/** Items one generation's plan writes (each is one transaction action). */
export const planActions = (plan: GenerationPlan) =>
  plan.ledger.size + plan.clients.size + plan.totals.size + plan.clientDays.size;
