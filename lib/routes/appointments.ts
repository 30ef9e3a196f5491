import * as z from 'zod';
import { ALLOW } from '../auth/roles';
import { defineRoutes, list } from '../http/route';
import { AppointmentDetail } from '../schemas/appointment-detail';
import * as appt from '../schemas/appointments';
import { Deleted, IdParams } from '../schemas/common';

/** Appointments, availability and slots (API reference, appointments). */
export const appointmentRoutes = defineRoutes({
  getAppointments: {
    method: 'GET', path: '/v1/appointments', group: 'appointments', summary: 'List appointments by practice-local date range, ordered by start',
    auth: ALLOW.readAll, query: appt.ListAppointmentsQuery, queryFromBody: true, response: list(appt.AppointmentListItem),
  },
  createAppointment: {
    method: 'POST', path: '/v1/appointments', group: 'appointments', summary: 'Book an appointment (never double-books)',
    auth: ALLOW.frontOffice, body: appt.CreateAppointmentBody, response: appt.Appointment,
    writes: { appointments: ['put'], claims: ['put', 'update'], clients: ['check'] },
  },
  getAppointment: {
    method: 'GET', path: '/v1/appointments/{id}', group: 'appointments', summary: 'Appointment detail with client, service, provider, room, equipment, consents, treatment record',
    auth: ALLOW.readAll, params: IdParams, response: AppointmentDetail,
  },
  updateAppointment: {
    method: 'PATCH', path: '/v1/appointments/{id}', group: 'appointments', summary: 'Change or move an appointment (re-validated, atomic)',
    auth: ALLOW.frontOffice, params: IdParams, body: appt.UpdateAppointmentBody, response: appt.Appointment,
    writes: { appointments: ['update'], claims: ['put', 'update'] },
  },
  updateAppointmentStatus: {
    method: 'PATCH', path: '/v1/appointments/{id}/status', group: 'appointments', summary: 'Move an appointment through its status machine',
    auth: ALLOW.clinical, params: IdParams, body: appt.StatusBody, response: appt.Appointment,
    writes: { appointments: ['update'], claims: ['update'], clients: ['update'] },
  },
  cancelAppointment: {
    method: 'POST', path: '/v1/appointments/{id}/cancel', group: 'appointments', successStatus: 200, summary: 'Cancel an appointment and free its time',
    auth: ALLOW.clinical, params: IdParams, body: appt.CancelBody, response: appt.Appointment,
    writes: { appointments: ['update'], claims: ['update'] },
  },
  markNoShow: {
    method: 'POST', path: '/v1/appointments/{id}/no-show', group: 'appointments', successStatus: 200, summary: 'Mark a checked-in appointment as no-show and free its time',
    auth: ALLOW.clinical, params: IdParams, response: appt.Appointment,
    writes: { appointments: ['update'], claims: ['update'], clients: ['update'] },
  },
  deleteAppointment: {
    method: 'DELETE', path: '/v1/appointments/{id}', group: 'appointments', summary: 'Delete an appointment and free its time',
    auth: ALLOW.frontOffice, params: IdParams, response: Deleted,
    writes: { appointments: ['delete'], claims: ['update'] },
  },
  sendReminder: {
    method: 'POST', path: '/v1/appointments/{id}/reminders', group: 'appointments', successStatus: 202, summary: 'Request an appointment.reminder now',
    auth: ALLOW.frontOffice, params: IdParams, response: appt.ReminderResult,
    writes: { appointments: ['put'] },
  },
  recordTreatment: {
    method: 'PUT', path: '/v1/appointments/{id}/treatment-record', group: 'appointments', summary: 'Write the treatment record of an appointment',
    auth: ALLOW.treatmentRecords, params: IdParams, body: appt.TreatmentRecordBody, response: appt.TreatmentRecord,
    writes: { appointments: ['put'] },
  },
  checkProviderAvailability: {
    method: 'GET', path: '/v1/providers/{id}/availability', group: 'appointments', summary: 'Is the provider (and room/equipment) free for [start, end)?',
    auth: ALLOW.readAll, params: IdParams, query: appt.AvailabilityQuery, response: appt.AvailabilityResult,
  },
  getAvailableSlots: {
    method: 'GET', path: '/v1/providers/{id}/slots', group: 'appointments', summary: 'Bookable start times on a practice-local date',
    auth: ALLOW.readAll, params: IdParams, query: appt.SlotsQuery, response: z.array(appt.Slot),
  },
  searchAvailability: {
    method: 'GET', path: '/v1/availability', group: 'appointments', summary: 'Bookable slots per provider and practice-local day over up to 31 days (same rule as slots)',
    auth: ALLOW.readAll, query: appt.AvailabilitySearchQuery, response: z.array(appt.AvailabilityEntry),
  },
});
