import { countersByDimension, FIRST_VISITS, TOTALS } from './report-aggregates';
import { periodOf, type ReportGroup } from './report-periods';
import { datesBetween } from './time';
import { utilization } from './utilization';

/**
 * The four reports (API reference, reports), pure: figures from the per-day counters of a practice-local date
 * range (lib/domain/report-aggregates.ts), no I/O. A missing day item is a day with nothing.
 */

/** One day item as read: its local date and its counters. */
export interface DayCounters {
  date: string;
  counters: Record<string, number>;
}

const n = (counters: Record<string, number> | undefined, name: string) => counters?.[name] ?? 0;

export interface RevenueSeriesEntry {
  period: string;
  service_cents: number;
  retail_cents: number;
  plans_cents: number;
  collected_cents: number;
  appointments_completed: number;
}

/** Revenue over [from, to]: totals and one entry per period touching the range (empty periods included, in order). */
export function revenueReport(days: readonly DayCounters[], range: { from: string; to: string }, group: ReportGroup) {
  const byDate = new Map(days.map((day) => [day.date, day.counters]));
  const series = new Map<string, RevenueSeriesEntry>();
  for (const date of datesBetween(range.from, range.to)) {
    const period = periodOf(date, group);
    const entry = series.get(period) ?? {
      period,
      service_cents: 0,
      retail_cents: 0,
      plans_cents: 0,
      collected_cents: 0,
      appointments_completed: 0,
    };
    const counters = byDate.get(date);
    entry.service_cents += n(counters, TOTALS.service_cents);
    entry.retail_cents += n(counters, TOTALS.retail_cents);
    entry.plans_cents += n(counters, TOTALS.plans_cents);
    entry.collected_cents += n(counters, TOTALS.collected_cents);
    entry.appointments_completed += n(counters, TOTALS.completed);
    series.set(period, entry);
  }
  const list = [...series.values()];
  const sum = (key: keyof Omit<RevenueSeriesEntry, 'period'>) => list.reduce((total, entry) => total + entry[key], 0);
  const service = sum('service_cents');
  const retail = sum('retail_cents');
  const plans = sum('plans_cents');
  return {
    total_cents: service + retail + plans,
    service_cents: service,
    retail_cents: retail,
    plans_cents: plans,
    collected_cents: sum('collected_cents'),
    series: list,
  };
}

/** Sums the per-provider (`p`) or per-service (`s`) counters of the range's days, by id. */
function sumByDimension(days: readonly DayCounters[], dimension: 'p' | 's'): Map<string, Record<string, number>> {
  const totals = new Map<string, Record<string, number>>();
  for (const day of days) {
    for (const [id, measures] of countersByDimension(day.counters, dimension)) {
      const total = totals.get(id) ?? {};
      for (const [measure, value] of Object.entries(measures)) total[measure] = (total[measure] ?? 0) + value;
      totals.set(id, total);
    }
  }
  return totals;
}

export interface ProviderRef {
  id: string;
  full_name: string | null;
  /** Working minutes in the range (lib/domain/utilization.ts). */
  working_minutes: number;
}

/**
 * Per provider: `providers` (the practice's live ones) plus any other with counters in the range
 * (e.g. deleted since; named from `others`), highest revenue first, then by name and id.
 */
export function providerPerformance(
  days: readonly DayCounters[],
  providers: readonly ProviderRef[],
  others: ReadonlyMap<string, ProviderRef> = new Map(),
) {
  const totals = sumByDimension(days, 'p');
  const known = new Map(providers.map((p) => [p.id, p]));
  for (const id of totals.keys())
    if (!known.has(id)) known.set(id, others.get(id) ?? { id, full_name: null, working_minutes: 0 });
  const rows = [...known.values()].map((provider) => {
    const t = totals.get(provider.id);
    const completed = n(t, 'completed');
    const revenue = n(t, 'revenue_cents');
    const minutes = n(t, 'booked_minutes');
    return {
      provider: { id: provider.id, full_name: provider.full_name },
      appointments_completed: completed,
      revenue_cents: revenue,
      average_ticket_cents: completed > 0 ? Math.round(revenue / completed) : 0,
      cancellations: n(t, 'cancelled'),
      no_shows: n(t, 'no_show'),
      booked_minutes: minutes,
      working_minutes: provider.working_minutes,
      utilization: utilization(minutes, provider.working_minutes),
    };
  });
  return rows.sort(
    (a, b) =>
      b.revenue_cents - a.revenue_cents ||
      (a.provider.full_name ?? '').localeCompare(b.provider.full_name ?? '') ||
      a.provider.id.localeCompare(b.provider.id),
  );
}

export interface ServiceRef {
  id: string;
  name: string | null;
}

/** Per service: the catalog plus any other service with counters in the range; most booked first, then most completed, then by name. */
export function servicePopularity(days: readonly DayCounters[], services: readonly ServiceRef[]) {
  const totals = sumByDimension(days, 's');
  const known = new Map(services.map((s) => [s.id, s]));
  for (const id of totals.keys()) if (!known.has(id)) known.set(id, { id, name: null });
  const rows = [...known.values()].map((service) => {
    const t = totals.get(service.id);
    return {
      service: { id: service.id, name: service.name },
      bookings: n(t, 'booked'),
      completed: n(t, 'completed'),
      cancelled: n(t, 'cancelled'),
      revenue_cents: n(t, 'revenue_cents'),
    };
  });
  return rows.sort(
    (a, b) =>
      b.bookings - a.bookings ||
      b.completed - a.completed ||
      (a.service.name ?? '').localeCompare(b.service.name ?? '') ||
      a.service.id.localeCompare(b.service.id),
  );
}

/**
 * Retention over the range from its CLIENTS day items: seen = distinct clients with a completed
 * visit in the range; new = clients whose first completed visit is in the range; returning =
 * seen with a completed visit before `from`, which is seen - new (a seen client's first visit is
 * either in the range or before it).
 */
export function clientRetention(clientDays: readonly DayCounters[]) {
  const seen = new Set<string>();
  let fresh = 0;
  for (const day of clientDays) {
    for (const [id, measures] of countersByDimension(day.counters, 'c')) if (n(measures, 'count') > 0) seen.add(id);
    fresh += n(day.counters, FIRST_VISITS);
  }
  const returning = seen.size - fresh;
  return {
    clients_seen: seen.size,
    new_clients: fresh,
    returning_clients: returning,
    retention_rate: seen.size > 0 ? Math.round((returning / seen.size) * 10_000) / 10_000 : 0,
  };
}
