import * as z from '../schemas/zod';
import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import { AppointmentDetail } from '../schemas/appointment-detail';
import * as appt from '../schemas/appointments';
import * as rec from '../schemas/treatment-records';
import { Deleted, IdParams } from '../schemas/common';
import { WaiveFeeBody, WaiveFeeParams } from '../schemas/deposits';

/** A provider, room or equipment the request names may be absent. */
const RESOURCE_NOT_FOUND = ['PROVIDER_NOT_FOUND', 'ROOM_NOT_FOUND', 'EQUIPMENT_NOT_FOUND'] as const;
/** What placing an appointment on the calendar can refuse (API reference, appointments: booking rules). */
const BOOKING_ERRORS = [
  ...RESOURCE_NOT_FOUND,
  'PROVIDER_NOT_CERTIFIED',
  'PROVIDER_UNAVAILABLE',
  'ROOM_UNAVAILABLE',
  'EQUIPMENT_UNAVAILABLE',
] as const;
/** Booking against a client plan (API reference, section 12), checked right after PROVIDER_NOT_CERTIFIED. */
const PLAN_BOOKING_ERRORS = [
  'CLIENT_PLAN_NOT_FOUND',
  'PLAN_NOT_APPLICABLE',
  'PLAN_NOT_ACTIVE',
  'ENTITLEMENT_EXHAUSTED',
] as const;
/** A move through the status machine (API reference, appointments: statuses). */
const STATUS_ERRORS = ['APPOINTMENT_NOT_FOUND', 'INVALID_STATUS_TRANSITION'] as const;

export const getAppointments = /* @__PURE__ */ route('getAppointments', () => ({
  method: 'GET',
  path: '/v1/appointments',
  group: 'appointments',
  summary: 'List appointments by practice-local date range, ordered by start',
  auth: ALLOW.readAll,
  query: appt.ListAppointmentsQuery,
  queryFromBody: true,
  response: list(appt.AppointmentListItem),
  reads: ['appointmentListByMonth', 'clients', 'providers', 'services'],
}));

export const createAppointment = /* @__PURE__ */ route('createAppointment', () => ({
  method: 'POST',
  path: '/v1/appointments',
  group: 'appointments',
  summary: 'Book an appointment (never double-books)',
  auth: ALLOW.frontOffice,
  body: appt.CreateAppointmentBody,
  response: appt.Appointment,
  errors: ['CLIENT_NOT_FOUND', 'SERVICE_NOT_FOUND', ...BOOKING_ERRORS, ...PLAN_BOOKING_ERRORS],
  // A booking against a client plan reserves its unit (balance + ledger entry) in the same write.
  writes: {
    appointments: ['put'],
    claims: ['put', 'update'],
    clients: ['check'],
    onlineLedger: ['update'],
    clientPlans: ['check', 'update'],
    planLedger: ['put'],
  },
  reads: ['claims', 'clientPlans', 'clients', 'equipment', 'providers', 'rooms', 'series', 'services'],
}));

export const getAppointment = /* @__PURE__ */ route('getAppointment', () => ({
  method: 'GET',
  path: '/v1/appointments/{id}',
  group: 'appointments',
  summary: 'Appointment detail with client, service, provider, room, equipment, consents, treatment record',
  auth: ALLOW.readAll,
  params: IdParams,
  response: AppointmentDetail,
  errors: ['APPOINTMENT_NOT_FOUND'],
  // The forms catalog and the client's forms summary: readiness, in the same batch (section 14).
  reads: [
    'appointments',
    'clients',
    'consents',
    'equipment',
    'formsCatalog',
    'formsSummary',
    'providers',
    'rooms',
    'services',
  ],
}));

export const updateAppointment = /* @__PURE__ */ route('updateAppointment', () => ({
  method: 'PATCH',
  path: '/v1/appointments/{id}',
  group: 'appointments',
  summary: 'Change or move an appointment (re-validated, atomic)',
  auth: ALLOW.frontOffice,
  params: IdParams,
  body: appt.UpdateAppointmentBody,
  response: appt.Appointment,
  errors: ['APPOINTMENT_NOT_FOUND', ...BOOKING_ERRORS, 'INVALID_STATUS_TRANSITION'],
  writes: { appointments: ['update'], claims: ['put', 'update'], onlineLedger: ['update'] },
  reads: ['appointments', 'claims', 'equipment', 'providers', 'rooms', 'series', 'services'],
}));

export const updateAppointmentStatus = /* @__PURE__ */ route('updateAppointmentStatus', () => ({
  method: 'PATCH',
  path: '/v1/appointments/{id}/status',
  group: 'appointments',
  summary: 'Move an appointment through its status machine',
  auth: ALLOW.clinical,
  params: IdParams,
  body: appt.StatusBody,
  response: appt.Appointment,
  errors: STATUS_ERRORS,
  // A plan-booked appointment's unit is used or released in the same write (section 12).
  writes: {
    appointments: ['update'],
    claims: ['update'],
    clients: ['update'],
    onlineLedger: ['update'],
    clientPlans: ['update'],
    planLedger: ['put'],
  },
  reads: ['appointments', 'clientPlans'],
}));

export const cancelAppointment = /* @__PURE__ */ route('cancelAppointment', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/cancel',
  group: 'appointments',
  successStatus: 200,
  summary: "Cancel an appointment and free its time (a late cancel assesses the policy's fee)",
  auth: ALLOW.clinical,
  params: IdParams,
  body: appt.CancelBody,
  response: appt.Appointment,
  ifMatch: true,
  errors: STATUS_ERRORS,
  // A plan-booked appointment's unit is used (late) or released in the same write (section 12).
  writes: {
    appointments: ['update'],
    claims: ['update'],
    onlineLedger: ['update'],
    clientPlans: ['update'],
    planLedger: ['put'],
  },
  reads: ['appointments', 'clientPlans'],
}));

export const markNoShow = /* @__PURE__ */ route('markNoShow', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/no-show',
  group: 'appointments',
  successStatus: 200,
  summary: 'Mark a checked-in appointment as no-show and free its time',
  auth: ALLOW.clinical,
  params: IdParams,
  response: appt.Appointment,
  ifMatch: true,
  errors: STATUS_ERRORS,
  // A plan-booked appointment's unit is used or released in the same write (section 12).
  writes: {
    appointments: ['update'],
    claims: ['update'],
    clients: ['update'],
    onlineLedger: ['update'],
    clientPlans: ['update'],
    planLedger: ['put'],
  },
  reads: ['appointments', 'clientPlans'],
}));

export const waiveAppointmentFee = /* @__PURE__ */ route('waiveAppointmentFee', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/fees/{kind}/waive',
  group: 'appointments',
  successStatus: 200,
  summary: "Waive an appointment's due late-cancel or no-show fee",
  auth: ALLOW.feeWaivers,
  params: WaiveFeeParams,
  body: WaiveFeeBody,
  response: appt.Appointment,
  errors: [...STATUS_ERRORS, 'VERSION_CONFLICT'],
  writes: { appointments: ['update'] },
  reads: ['appointments'],
}));

export const deleteAppointment = /* @__PURE__ */ route('deleteAppointment', () => ({
  method: 'DELETE',
  path: '/v1/appointments/{id}',
  group: 'appointments',
  summary: 'Delete an appointment and free its time',
  auth: ALLOW.frontOffice,
  params: IdParams,
  response: Deleted,
  errors: ['APPOINTMENT_NOT_FOUND'],
  // A plan-booked appointment's reserved unit is released in the same write (section 12).
  writes: {
    appointments: ['delete'],
    claims: ['update'],
    onlineLedger: ['update'],
    clientPlans: ['update'],
    planLedger: ['put'],
  },
  reads: ['appointments', 'clientPlans'],
}));

export const sendReminder = /* @__PURE__ */ route('sendReminder', () => ({
  method: 'POST',
  path: '/v1/appointments/{id}/reminders',
  group: 'appointments',
  successStatus: 202,
  summary: 'Request an appointment.reminder now',
  auth: ALLOW.frontOffice,
  params: IdParams,
  response: appt.ReminderResult,
  errors: STATUS_ERRORS,
  writes: { appointments: ['put'] },
  reads: ['appointments'],
}));

export const recordTreatment = /* @__PURE__ */ route('recordTreatment', () => ({
  method: 'PUT',
  path: '/v1/appointments/{id}/treatment-record',
  group: 'treatment-records',
  summary:
    'Write or replace the draft treatment record, taking the stock it names in the same write (by the difference from the draft it replaces)',
  auth: ALLOW.treatmentRecords,
  params: IdParams,
  body: rec.TreatmentRecordBody,
  response: rec.TreatmentRecord,
  errors: [...STATUS_ERRORS, ...rec.RECORD_STOCK_ERRORS, 'RECORD_LOCKED'],
  writes: rec.RECORD_STOCK_WRITES,
  reads: rec.RECORD_STOCK_READS,
}));

export const checkProviderAvailability = /* @__PURE__ */ route('checkProviderAvailability', () => ({
  method: 'GET',
  path: '/v1/providers/{id}/availability',
  group: 'appointments',
  summary: 'Is the provider (and room/equipment) free for [start, end)?',
  auth: ALLOW.readAll,
  params: IdParams,
  query: appt.AvailabilityQuery,
  response: appt.AvailabilityResult,
  errors: ['SERVICE_NOT_FOUND', ...RESOURCE_NOT_FOUND],
  reads: ['claims', 'equipment', 'providers', 'rooms', 'services'],
}));

export const getAvailableSlots = /* @__PURE__ */ route('getAvailableSlots', () => ({
  method: 'GET',
  path: '/v1/providers/{id}/slots',
  group: 'appointments',
  summary: 'Bookable start times on a practice-local date',
  auth: ALLOW.readAll,
  params: IdParams,
  query: appt.SlotsQuery,
  response: z.array(appt.Slot),
  errors: ['SERVICE_NOT_FOUND', ...RESOURCE_NOT_FOUND],
  reads: ['claims', 'equipment', 'providers', 'rooms', 'services'],
}));

export const searchAvailability = /* @__PURE__ */ route('searchAvailability', () => ({
  method: 'GET',
  path: '/v1/availability',
  group: 'appointments',
  summary: 'Bookable slots per provider and practice-local day over up to 31 days (same rule as slots)',
  auth: ALLOW.readAll,
  query: appt.AvailabilitySearchQuery,
  response: z.array(appt.AvailabilityEntry),
  errors: ['SERVICE_NOT_FOUND', ...RESOURCE_NOT_FOUND, 'PROVIDER_NOT_CERTIFIED'],
  reads: ['claims', 'equipment', 'providers', 'rooms', 'services'],
}));

/** Appointments, availability and slots (API reference, appointments). */
export const appointmentRoutes = /* @__PURE__ */ defineRoutes({
  getAppointments,
  createAppointment,
  getAppointment,
  updateAppointment,
  updateAppointmentStatus,
  cancelAppointment,
  markNoShow,
  waiveAppointmentFee,
  deleteAppointment,
  sendReminder,
  recordTreatment,
  checkProviderAvailability,
  getAvailableSlots,
  searchAvailability,
});
