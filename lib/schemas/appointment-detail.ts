import * as z from './zod';
import { doc, meta, schema } from './common';
import { Appointment } from './appointments';
import { TreatmentRecord } from './treatment-records';
import { Consent } from './clients';
import { Client, Facility, Provider, Service } from './resources';
import { FormsReadiness } from './forms';

/** The detail of the API reference's appointments: the appointment with its records, each shaped by its own public schema. */
export const AppointmentDetail = /* @__PURE__ */ schema(() =>
  meta(
    z.extend(Appointment, {
      client: doc(z.nullable(Client), 'The client (null if it can no longer be read).'),
      service: doc(z.nullable(Service), 'The service.'),
      provider: doc(z.nullable(Provider), 'The provider.'),
      room: doc(z.nullable(Facility), 'The room, if one is booked.'),
      equipment: doc(z.nullable(Facility), 'The equipment, if booked.'),
      consent_forms: doc(z.array(Consent), "The client's signed consent forms."),
      treatment_record: doc(z.nullable(TreatmentRecord), 'The treatment record once completed, else null.'),
      forms: FormsReadiness,
    }),
    {
      description:
        'An appointment with its client, service, provider, room, equipment, consent forms and treatment record.',
      id: 'AppointmentDetail',
    },
  ),
);
