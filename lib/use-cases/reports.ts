import { readReportContext, readWholeCollection } from '../db/report-aggregates';
import { queryReportDays } from '../db/report-days';
import { countersByDimension, TOTALS } from '../domain/report-aggregates';
import { reportRange } from '../domain/report-periods';
import {
  clientRetention,
  providerPerformance,
  revenueReport,
  servicePopularity,
  type ProviderRef,
} from '../domain/reports';
import { localDateOf } from '../domain/time';
import { workingMinutes } from '../domain/utilization';
import { AppError } from '../errors';
import type { ReportQuery, RevenueReportQuery } from '../schemas/reports';
import type { ProviderRecord } from '../domain/records';

/**
 * The four reports (API reference, reports) from the counters the table stream keeps
 * (lib/use-cases/report-aggregation.ts): one round trip for the practice and the live
 * generation, then one Query per calendar year of the range. A year is at most 366 day items,
 * whatever the number of appointments.
 */

async function reportContext(medspaId: string, query: ReportQuery, now: Date) {
  const { practice, pointer } = await readReportContext(medspaId);
  // A valid token whose practice is gone: treat like any unknown caller.
  if (!practice) throw new AppError('UNAUTHORIZED');
  const range = reportRange({ from: query.from, to: query.to }, localDateOf(now.toISOString(), practice.time_zone));
  if ('path' in range)
    throw new AppError('VALIDATION_ERROR', range.message, { details: [{ path: range.path, message: range.message }] });
  return { practice, generation: pointer.active, range };
}

export async function getRevenueReport(medspaId: string, query: RevenueReportQuery, now: Date) {
  const { practice, generation, range } = await reportContext(medspaId, query, now);
  const days = await queryReportDays(medspaId, generation, 'TOTALS', range, [
    TOTALS.service_cents,
    TOTALS.retail_cents,
    TOTALS.plans_cents,
    TOTALS.collected_cents,
    TOTALS.completed,
  ]);
  return {
    ...range,
    currency: practice.currency,
    group_by: query.group_by,
    ...revenueReport(days, range, query.group_by),
  };
}

export async function getProviderPerformance(medspaId: string, query: ReportQuery, now: Date) {
  const { practice, generation, range } = await reportContext(medspaId, query, now);
  const [days, providers] = await Promise.all([
    queryReportDays(medspaId, generation, 'TOTALS', range),
    readWholeCollection(medspaId, 'PROVIDER'),
  ]);
  const refOf = (p: ProviderRecord): ProviderRef => ({
    id: p.id,
    full_name: p.full_name,
    working_minutes: workingMinutes({
      ...range,
      zone: practice.time_zone,
      workingHours: p.working_hours ?? {},
      timeOff: p.time_off ?? [],
    }),
  });
  const live = providers.filter((p) => !p.deleted_at);
  const deleted = new Map(providers.filter((p) => p.deleted_at).map((p) => [p.id, p]));
  // Deleted providers appear only with activity in the range: their working time is computed only then.
  const others = new Map<string, ProviderRef>();
  for (const day of days) {
    for (const id of countersByDimension(day.counters, 'p').keys())
      if (deleted.has(id) && !others.has(id)) others.set(id, refOf(deleted.get(id)!));
  }
  return providerPerformance(days, live.map(refOf), others);
}

export async function getClientRetention(medspaId: string, query: ReportQuery, now: Date) {
  const { generation, range } = await reportContext(medspaId, query, now);
  return { ...range, ...clientRetention(await queryReportDays(medspaId, generation, 'CLIENTS', range)) };
}

export async function getServicePopularity(medspaId: string, query: ReportQuery, now: Date) {
  const { generation, range } = await reportContext(medspaId, query, now);
  const [days, services] = await Promise.all([
    queryReportDays(medspaId, generation, 'TOTALS', range),
    readWholeCollection(medspaId, 'SERVICE'),
  ]);
  return servicePopularity(
    days,
    services.map((s) => ({ id: s.id, name: s.name })),
  );
}
