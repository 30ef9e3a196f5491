import * as z from 'zod';
import { schema } from './common';
import { Appointment, TreatmentRecord } from './appointments';
import { Consent } from './clients';
import { Client, Facility, Provider, Service } from './resources';

/** The detail of the API reference's appointments: the appointment with its records, each shaped by its own public schema. */
export const AppointmentDetail = /* @__PURE__ */ schema(() => Appointment.extend({
  client: Client.nullable().describe('The client (null if it can no longer be read).'),
  service: Service.nullable().describe('The service.'),
  provider: Provider.nullable().describe('The provider.'),
  room: Facility.nullable().describe('The room, if one is booked.'),
  equipment: Facility.nullable().describe('The equipment, if booked.'),
  consent_forms: z.array(Consent).describe("The client's signed consent forms."),
  treatment_record: TreatmentRecord.nullable().describe('The treatment record once completed, else null.'),
}).describe('An appointment with its client, service, provider, room, equipment, consent forms and treatment record.').meta({ id: 'AppointmentDetail' }));
