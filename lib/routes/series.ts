import { ALLOW } from '../auth/roles';
import { defineRoutes, route } from '../http/route';
import * as series from '../schemas/series';

/** Series (API reference, series; docs/decisions/0025): every occurrence booked, or none. */

export const createAppointmentSeries = /* @__PURE__ */ route('createAppointmentSeries', () => ({
  method: 'POST',
  path: '/v1/appointment-series',
  group: 'appointments',
  summary:
    'Book a series of appointments at the same local time, all or none (409 SERIES_CONFLICT names every occurrence refused)',
  auth: ALLOW.frontOffice,
  body: series.CreateSeriesBody,
  response: series.Series,
  errors: [
    'CLIENT_NOT_FOUND',
    'SERVICE_NOT_FOUND',
    'PROVIDER_NOT_FOUND',
    'PROVIDER_NOT_CERTIFIED',
    'ROOM_NOT_FOUND',
    'EQUIPMENT_NOT_FOUND',
    'CLIENT_PLAN_NOT_FOUND',
    'PLAN_NOT_APPLICABLE',
    'PLAN_NOT_ACTIVE',
    'ENTITLEMENT_EXHAUSTED',
    'SERIES_CONFLICT',
  ],
  // Pending claims are put, taken back or made permanent; the series item moves pending -> committed,
  // with a client plan's units reserved (its balance and ledger) in the same commit.
  writes: {
    series: ['put', 'update', 'check', 'delete'],
    claims: ['put', 'update'],
    appointments: ['put'],
    clients: ['check'],
    clientPlans: ['check', 'update'],
    planLedger: ['put'],
  },
  reads: ['claims', 'clientPlans', 'clients', 'equipment', 'providers', 'rooms', 'series', 'services'],
}));

export const getAppointmentSeries = /* @__PURE__ */ route('getAppointmentSeries', () => ({
  method: 'GET',
  path: '/v1/appointment-series/{id}',
  group: 'appointments',
  summary: 'A series with its appointments',
  auth: ALLOW.readAll,
  params: series.SeriesParams,
  response: series.Series,
  errors: ['SERIES_NOT_FOUND'],
  reads: ['appointments', 'series'],
}));

export const cancelAppointmentSeries = /* @__PURE__ */ route('cancelAppointmentSeries', () => ({
  method: 'POST',
  path: '/v1/appointment-series/{id}/cancel',
  group: 'appointments',
  successStatus: 200,
  summary: "Cancel a series' future active appointments (each as its own cancel: events, freed time, late-cancel fees)",
  auth: ALLOW.frontOffice,
  params: series.SeriesParams,
  body: series.CancelSeriesBody,
  response: series.Series,
  errors: ['SERIES_NOT_FOUND'],
  // Series appointments are never online ones: no online ledger to release. A plan-booked one's unit
  // is released or used by its cancel (section 11's fee rules).
  writes: { appointments: ['update'], claims: ['update'], clientPlans: ['update'], planLedger: ['put'] },
  reads: ['appointments', 'clientPlans', 'series'],
}));

export const seriesRoutes = /* @__PURE__ */ defineRoutes({
  createAppointmentSeries,
  getAppointmentSeries,
  cancelAppointmentSeries,
});
