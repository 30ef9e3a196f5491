import { ALLOW } from '../auth/roles';
import { defineRoutes, route } from '../http/route';
import * as rpt from '../schemas/reports';

export const getRevenueReport = /* @__PURE__ */ route('getRevenueReport', () => ({
  method: 'GET',
  path: '/v1/reports/revenue',
  group: 'reports',
  summary: 'Service, retail and collected revenue over practice-local dates, by day, ISO week or month',
  auth: ALLOW.reports,
  query: rpt.RevenueReportQuery,
  response: rpt.RevenueReport,
  reads: ['reportDays', 'reportGeneration'],
}));

export const getProviderPerformance = /* @__PURE__ */ route('getProviderPerformance', () => ({
  method: 'GET',
  path: '/v1/reports/provider-performance',
  group: 'reports',
  summary:
    'Per provider: completions, revenue, average ticket, cancellations, no-shows, booked minutes and utilization',
  auth: ALLOW.reports,
  query: rpt.ReportQuery,
  response: rpt.ProviderPerformance,
  reads: ['providers', 'reportDays', 'reportGeneration'],
}));

export const getClientRetention = /* @__PURE__ */ route('getClientRetention', () => ({
  method: 'GET',
  path: '/v1/reports/client-retention',
  group: 'reports',
  summary: 'Clients seen, new and returning over practice-local dates, and the retention rate',
  auth: ALLOW.reports,
  query: rpt.ReportQuery,
  response: rpt.ClientRetention,
  reads: ['reportDays', 'reportGeneration'],
}));

export const getServicePopularity = /* @__PURE__ */ route('getServicePopularity', () => ({
  method: 'GET',
  path: '/v1/reports/service-popularity',
  group: 'reports',
  summary: 'Per service: bookings, completions, cancellations and revenue, most booked first',
  auth: ALLOW.reports,
  query: rpt.ReportQuery,
  response: rpt.ServicePopularity,
  reads: ['reportDays', 'reportGeneration', 'services'],
}));

/** Reports (API reference, reports): read only, from the counters the table stream keeps. */
export const reportRoutes = /* @__PURE__ */ defineRoutes({
  getRevenueReport,
  getProviderPerformance,
  getClientRetention,
  getServicePopularity,
});
