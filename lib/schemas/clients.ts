import * as z from 'zod';
import { Appointment, TreatmentRecord } from './appointments';
import { DateTime, Id, Timestamps } from './common';

/** Client history and consents (contract 5); the client itself is in ./resources. */

/** A completed appointment of the client with its treatment record (null when none was written). */
export const ClientHistoryEntry = Appointment.extend({ treatment_record: TreatmentRecord.nullable() });

export const CreateConsentBody = z
  .object({
    form_name: z.string().trim().min(1).max(200),
    signed_at: DateTime.describe('When the client signed; with an offset, not in the future. Output in UTC.'),
    appointment_id: Id.nullish().describe("One of this client's appointments (else 404 APPOINTMENT_NOT_FOUND)"),
  })
  .strict();
export type CreateConsentInput = z.output<typeof CreateConsentBody>;

export const Consent = z.object({
  id: z.string(),
  medspa_id: z.string(),
  client_id: z.string(),
  form_name: z.string(),
  signed_at: z.string(),
  appointment_id: z.string().nullable(),
  ...Timestamps,
});
export type Consent = z.output<typeof Consent>;
