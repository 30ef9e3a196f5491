import * as z from 'zod';
import { Appointment, TreatmentRecord } from './appointments';
import { Consent } from './clients';
import { Client, Facility, Provider, Service } from './resources';

/** The detail of contract 4: the appointment with its records, each shaped by its own public schema. */
export const AppointmentDetail = Appointment.extend({
  client: Client.nullable(),
  service: Service.nullable(),
  provider: Provider.nullable(),
  room: Facility.nullable(),
  equipment: Facility.nullable(),
  consent_forms: z.array(Consent),
  treatment_record: TreatmentRecord.nullable(),
});
