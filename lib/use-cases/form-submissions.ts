import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { getEntity } from '../db/batch';
import { serviceCodec } from '../db/codecs';
import { findSubmission, findTemplates, listSubmissionsOf, putSubmission, readReadiness } from '../db/forms';
import type { RequestWrites } from '../db/request-writes';
import {
  answersValidator,
  documentSha256,
  expiryOf,
  NEVER,
  readinessOf,
  needsSignature,
  signatureProblem,
  type Answers,
  type FormField,
  type FormsReadiness,
  type SubmissionSource,
  type FormKind,
} from '../domain/forms';
import type {
  AppointmentRecord,
  ClientFormsSummaryRecord,
  ConsentRecord,
  FormsCatalogRecord,
  FormSubmissionRecord,
  ServiceRecord,
} from '../domain/records';
import { AppError } from '../errors';
import type { FormSubmission } from '../schemas/forms';
import { checkClientsAppointment, ofLiveClient, readNamedAppointment } from './clients';
import { failureOf } from './failures';
import { readFormTemplate } from './form-templates';
import { toListResult, type ListResult } from './list-result';

/**
 * Form submissions (API reference, section 14): answers checked against the template's current
 * version (the version pinned), immutable once stored, with the document hash; a consent form's
 * consent and the client's readiness summary in the same transaction (docs/decisions/0029).
 */

export interface SubmitFormInput {
  template_id: string;
  answers: Answers;
  signature?: { name: string };
  appointment_id?: string;
}

/** Who submitted: the staff API, or a client by a manage link (their address and user agent kept as evidence). */
export interface SubmissionOrigin {
  source: SubmissionSource;
  ip?: string;
  userAgent?: string;
}

/** A submission as answered: without the evidence and bookkeeping fields. */
export function presentSubmission(record: FormSubmissionRecord): FormSubmission {
  const { kind: _kind, consent_id: _consent, client_ip: _ip, user_agent: _agent, ...view } = record;
  return view;
}

/** The longest user agent kept (a header's size is bounded elsewhere; the evidence needs no more). */
const MAX_USER_AGENT = 512;

/**
 * Submits a form for a client: 404 CLIENT_NOT_FOUND, FORM_TEMPLATE_NOT_FOUND, APPOINTMENT_NOT_FOUND
 * (not this client's), then 400 VALIDATION_ERROR listing every answer problem and a missing
 * signature. The public manage-link route calls this with `source: 'public'`.
 */
export async function submitForm(
  medspaId: string,
  clientId: string,
  input: SubmitFormInput,
  now: Date,
  origin: SubmissionOrigin,
  writes?: RequestWrites,
): Promise<FormSubmission> {
  const appointmentId = input.appointment_id ?? null;
  const [template, appointment] = await ofLiveClient(medspaId, clientId, () =>
    Promise.all([readFormTemplate(medspaId, input.template_id), readNamedAppointment(medspaId, appointmentId)]),
  );
  checkClientsAppointment(clientId, appointmentId, appointment);
  const problems = answersValidator(template.fields)(input.answers);
  const unsigned = signatureProblem(template.kind, input.signature);
  if (unsigned) problems.push(unsigned);
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', problems[0]!.message, { details: problems });

  const at = now.toISOString();
  const signature = input.signature ? { name: input.signature.name, signed_at: at } : null;
  const id = randomUUID();
  const submission: FormSubmissionRecord = {
    id,
    medspa_id: medspaId,
    client_id: clientId,
    template_id: template.id,
    template_version: template.version,
    kind: template.kind,
    appointment_id: appointmentId,
    answers: input.answers,
    signature,
    document_sha256: documentSha256({
      template_id: template.id,
      template_version: template.version,
      name: template.name,
      kind: template.kind,
      body_markdown: template.body_markdown,
      fields: template.fields,
      answers: input.answers,
      signature_name: signature?.name ?? null,
    }),
    source: origin.source,
    submitted_at: at,
    expires_at: expiryOf(at, template.valid_days),
    consent_id: template.kind === 'consent' ? randomUUID() : null,
    client_ip: origin.source === 'public' ? (origin.ip ?? null) : null,
    user_agent: origin.source === 'public' ? (origin.userAgent?.slice(0, MAX_USER_AGENT) ?? null) : null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const consent: ConsentRecord | null = submission.consent_id
    ? {
        id: submission.consent_id,
        medspa_id: medspaId,
        client_id: clientId,
        form_name: template.name,
        signed_at: at,
        appointment_id: appointmentId,
        form_submission_id: id,
        version: 1,
        created_at: at,
        updated_at: at,
      }
    : null;
  // A client deleted since the read above fails the write (its deletion committed first).
  const result = await putSubmission(submission, submission.expires_at ?? NEVER, consent, writes);
  if (!result.ok) throw failureOf({ client: 'CLIENT_NOT_FOUND' }, result);
  return presentSubmission(submission);
}

export async function readFormSubmission(medspaId: string, id: string): Promise<FormSubmission> {
  const submission = await findSubmission(medspaId, id);
  if (!submission) throw new AppError('FORM_SUBMISSION_NOT_FOUND');
  return presentSubmission(submission);
}

/** A page of the client's submissions, newest first. */
export async function listFormSubmissions(
  medspaId: string,
  clientId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<FormSubmission>> {
  const page = pageRequest(medspaId, 'form-submissions', { ...query, client_id: clientId });
  const found = await ofLiveClient(medspaId, clientId, () => listSubmissionsOf(medspaId, clientId, page));
  return toListResult({ ...found, items: found.items.map(presentSubmission) });
}

/** An appointment's forms readiness from its service and the two readiness items (no read of its own). */
export const readinessFor = (
  appointment: Pick<AppointmentRecord, 'scheduled_at'>,
  service: Pick<ServiceRecord, 'required_form_template_ids'> | null,
  catalog: FormsCatalogRecord,
  summary: ClientFormsSummaryRecord,
): FormsReadiness =>
  readinessOf(
    service?.required_form_template_ids ?? [],
    (id) => catalog.templates[id]?.name ?? '',
    (id) => summary.latest_expiry[id],
    appointment.scheduled_at,
  );

export interface FormNeeded {
  template_id: string;
  name: string;
  version: number;
  kind: FormKind;
  /** Whether a submission must carry `signature` (consent and photo release forms). */
  signature_required: boolean;
  body_markdown: string;
  fields: FormField[];
}

/**
 * The current versions of the templates the appointment's service requires that are not met at its
 * start (the booking page and `GET /v1/public/bookings/{id}/forms`): the service and the readiness
 * items in one batch, then the templates missing.
 */
export async function formsStillNeeded(
  medspaId: string,
  appointment: Pick<AppointmentRecord, 'client_id' | 'service_id' | 'scheduled_at'>,
): Promise<FormNeeded[]> {
  const [service, { catalog, summary }] = await Promise.all([
    getEntity(serviceCodec, medspaId, appointment.service_id),
    readReadiness(medspaId, appointment.client_id),
  ]);
  const { missing } = readinessFor(appointment, service, catalog, summary);
  if (missing.length === 0) return [];
  const templates = await findTemplates(
    medspaId,
    missing.map((ref) => ref.template_id),
  );
  return missing.flatMap(({ template_id }) => {
    const template = templates.get(template_id);
    return template
      ? [
          {
            template_id,
            name: template.name,
            version: template.version,
            kind: template.kind,
            signature_required: needsSignature(template.kind),
            body_markdown: template.body_markdown,
            fields: template.fields,
          },
        ]
      : [];
  });
}
