import * as z from './zod';
import { Appointment } from './appointments';
import { TreatmentRecord } from './treatment-records';
import { DateTime, doc, IdOf, Instant, meta, OutId, schema, Timestamps } from './common';

/** Client history and consents (API reference, other resources); the client itself is in ./resources. */

/** A completed appointment of the client with its treatment record (null when none was written). */
export const ClientHistoryEntry = /* @__PURE__ */ schema(() =>
  doc(
    z.extend(Appointment, { treatment_record: z.nullable(TreatmentRecord) }),
    'A completed appointment with its treatment record (null when none was written).',
  ),
);

export const CreateConsentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      form_name: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
        'Name of the form signed (1-200 characters).',
        'Botox informed consent v3',
      ),
      signed_at: doc(
        DateTime,
        'When the client signed; with an offset, not in the future. Output in UTC.',
        '2026-11-23T09:45:00-05:00',
      ),
      appointment_id: z.nullish(
        IdOf('appointment', "One of this client's appointments (else 404 APPOINTMENT_NOT_FOUND)."),
      ),
    }),
    'A signed consent form.',
  ),
);
export type CreateConsentInput = z.output<typeof CreateConsentBody>;

export const Consent = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('consent', 'The consent id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      client_id: OutId('client', 'The client who signed.'),
      form_name: doc(z.string(), 'Name of the form.', 'Botox informed consent v3'),
      signed_at: Instant('When it was signed (UTC).', '2026-11-23T14:45:00.000Z'),
      appointment_id: z.nullable(OutId('appointment', 'The appointment it is for, if any.')),
      form_submission_id: doc(
        z.nullable(OutId('formSubmission', 'The form submission.')),
        'The form submission (section 14) it was signed with; null when recorded directly.',
        null,
      ),
      ...Timestamps,
    }),
    { description: 'A consent form the client signed.', id: 'Consent' },
  ),
);
export type Consent = z.output<typeof Consent>;
