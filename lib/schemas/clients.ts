import * as z from 'zod';
import { Appointment, TreatmentRecord } from './appointments';
import { DateTime, doc, IdOf, Instant, OutId, schema, Timestamps } from './common';

/** Client history and consents (API reference, other resources); the client itself is in ./resources. */

/** A completed appointment of the client with its treatment record (null when none was written). */
export const ClientHistoryEntry = /* @__PURE__ */ schema(() => Appointment.extend({ treatment_record: TreatmentRecord.nullable() }).describe('A completed appointment with its treatment record (null when none was written).'));

export const CreateConsentBody = /* @__PURE__ */ schema(() => z
  .object({
    form_name: doc(z.string().trim().min(1).max(200), 'Name of the form signed (1-200 characters).', 'Botox informed consent v3'),
    signed_at: doc(DateTime, 'When the client signed; with an offset, not in the future. Output in UTC.', '2026-11-23T09:45:00-05:00'),
    appointment_id: IdOf('appointment', "One of this client's appointments (else 404 APPOINTMENT_NOT_FOUND).").nullish(),
  })
  .strict()
  .describe('A signed consent form.'));
export type CreateConsentInput = z.output<typeof CreateConsentBody>;

export const Consent = /* @__PURE__ */ schema(() => z
  .object({
    id: OutId('consent', 'The consent id.'),
    medspa_id: OutId('practice', 'The practice it belongs to.'),
    client_id: OutId('client', 'The client who signed.'),
    form_name: doc(z.string(), 'Name of the form.', 'Botox informed consent v3'),
    signed_at: Instant('When it was signed (UTC).', '2026-11-23T14:45:00.000Z'),
    appointment_id: OutId('appointment', 'The appointment it is for, if any.').nullable(),
    ...Timestamps,
  })
  .describe('A consent form the client signed.').meta({ id: 'Consent' }));
export type Consent = z.output<typeof Consent>;
