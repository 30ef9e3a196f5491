import * as z from '../schemas/zod';
import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import { PageQuery } from '../schemas/common';
import * as f from '../schemas/forms';
import { PublicBookingParams } from '../schemas/public-booking';
import { ResourceParams } from '../schemas/resources';

/**
 * Forms and e-consent (API reference, section 14): templates (written by admins and managers, read
 * by all staff), submissions (taken and read by the roles that see clients in the treatment room:
 * they hold medical history, so not analysts), and the manage link's forms (section 10's token).
 */

/** A template write: its current item (conditioned on the version read), its version item, its catalog entry. */
const TEMPLATE_WRITES = { formTemplates: ['put'], formTemplateVersions: ['put'], formsCatalog: ['update'] } as const;
/** A submission: written once with its client's liveness check, its readiness summary and, for a consent form, the consent. */
const SUBMISSION_WRITES = {
  formSubmissions: ['put'],
  clients: ['check'],
  consents: ['put'],
  formsSummary: ['update'],
} as const;
/** A manage link's token is opened under the cursor secret (lib/crypto/manage-token.ts). */
const MANAGE_TOKEN = { secrets: ['cursor'] } as const;

export const createFormTemplate = /* @__PURE__ */ route('createFormTemplate', () => ({
  method: 'POST',
  path: '/v1/form-templates',
  group: 'forms',
  summary: 'Create a form template (version 1)',
  auth: ALLOW.catalogWrite,
  body: f.CreateFormTemplateBody,
  response: f.FormTemplate,
  writes: TEMPLATE_WRITES,
  // It reads nothing; a row declares at least one family.
  reads: ['formTemplates'],
}));

export const listFormTemplates = /* @__PURE__ */ route('listFormTemplates', () => ({
  method: 'GET',
  path: '/v1/form-templates',
  group: 'forms',
  summary: 'List form templates (each at its current version), in id order',
  auth: ALLOW.readAll,
  query: PageQuery,
  response: list(f.FormTemplate),
  reads: ['formTemplates'],
}));

export const getFormTemplate = /* @__PURE__ */ route('getFormTemplate', () => ({
  method: 'GET',
  path: '/v1/form-templates/{id}',
  group: 'forms',
  summary: 'A form template at its current version',
  auth: ALLOW.readAll,
  params: ResourceParams,
  response: f.FormTemplate,
  errors: ['FORM_TEMPLATE_NOT_FOUND'],
  reads: ['formTemplates'],
}));

export const updateFormTemplate = /* @__PURE__ */ route('updateFormTemplate', () => ({
  method: 'PATCH',
  path: '/v1/form-templates/{id}',
  group: 'forms',
  summary: 'Change a form template: makes the next version (every earlier one stays readable)',
  auth: ALLOW.catalogWrite,
  params: ResourceParams,
  body: f.UpdateFormTemplateBody,
  response: f.FormTemplate,
  errors: ['FORM_TEMPLATE_NOT_FOUND'],
  writes: TEMPLATE_WRITES,
  reads: ['formTemplates'],
}));

export const getFormTemplateVersion = /* @__PURE__ */ route('getFormTemplateVersion', () => ({
  method: 'GET',
  path: '/v1/form-templates/{id}/versions/{n}',
  group: 'forms',
  summary: 'A form template as it was at version n (immutable)',
  auth: ALLOW.readAll,
  params: f.FormTemplateVersionParams,
  response: f.FormTemplate,
  errors: ['FORM_TEMPLATE_NOT_FOUND'],
  reads: ['formTemplateVersions'],
}));

export const createFormSubmission = /* @__PURE__ */ route('createFormSubmission', () => ({
  method: 'POST',
  path: '/v1/clients/{id}/form-submissions',
  group: 'forms',
  summary:
    "Submit a form for a client, checked against the template's current version (pinned as `template_version`); a consent form also records a consent (`consent.signed`)",
  auth: ALLOW.clinical,
  params: ResourceParams,
  body: f.CreateFormSubmissionBody,
  response: f.FormSubmission,
  errors: ['CLIENT_NOT_FOUND', 'FORM_TEMPLATE_NOT_FOUND', 'APPOINTMENT_NOT_FOUND'],
  writes: SUBMISSION_WRITES,
  reads: ['appointments', 'clients', 'formTemplates'],
}));

export const listFormSubmissions = /* @__PURE__ */ route('listFormSubmissions', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/form-submissions',
  group: 'forms',
  summary: "A client's form submissions, newest first",
  auth: ALLOW.clinical,
  params: ResourceParams,
  query: PageQuery,
  response: list(f.FormSubmission),
  errors: ['CLIENT_NOT_FOUND'],
  reads: ['clientFormSubmissions', 'clients'],
  // Medical history is PHI: every successful read is audited, as photos' are.
  auditReads: true,
}));

export const getFormSubmission = /* @__PURE__ */ route('getFormSubmission', () => ({
  method: 'GET',
  path: '/v1/form-submissions/{id}',
  group: 'forms',
  summary: 'A form submission',
  auth: ALLOW.clinical,
  params: f.FormSubmissionParams,
  response: f.FormSubmission,
  errors: ['FORM_SUBMISSION_NOT_FOUND'],
  reads: ['formSubmissions'],
  auditReads: true,
}));

/** What a booking's forms read: the booking, its service, the readiness items and the templates. */
const PUBLIC_FORMS_READS = ['appointments', 'formTemplates', 'formsCatalog', 'formsSummary', 'services'] as const;

export const listPublicBookingForms = /* @__PURE__ */ route('listPublicBookingForms', () => ({
  method: 'GET',
  path: '/v1/public/bookings/{appointment_id}/forms',
  group: 'forms',
  summary:
    "The forms a booking still needs (its service's required templates not met at its start), by its manage token",
  auth: 'publishable',
  params: PublicBookingParams,
  response: z.array(f.FormNeeded),
  errors: ['APPOINTMENT_NOT_FOUND', 'ONLINE_BOOKING_DISABLED'],
  touches: MANAGE_TOKEN,
  reads: PUBLIC_FORMS_READS,
}));

export const submitPublicBookingForm = /* @__PURE__ */ route('submitPublicBookingForm', () => ({
  method: 'POST',
  path: '/v1/public/bookings/{appointment_id}/forms',
  group: 'forms',
  summary:
    "Submit a form for a booking's client, by its manage token (`source: public`; the client's address and user agent are kept with it, never answered)",
  auth: 'publishable',
  params: PublicBookingParams,
  body: f.PublicFormSubmissionBody,
  response: f.FormSubmission,
  idempotent: true,
  errors: ['APPOINTMENT_NOT_FOUND', 'FORM_TEMPLATE_NOT_FOUND', 'ONLINE_BOOKING_DISABLED'],
  writes: SUBMISSION_WRITES,
  touches: MANAGE_TOKEN,
  // Not the readiness items: a submission raises the summary in its transaction without reading it.
  reads: ['appointments', 'clients', 'formTemplates', 'services'],
}));

/** Forms and e-consent (API reference, section 14). */
export const formRoutes = /* @__PURE__ */ defineRoutes({
  createFormTemplate,
  listFormTemplates,
  getFormTemplate,
  updateFormTemplate,
  getFormTemplateVersion,
  createFormSubmission,
  listFormSubmissions,
  getFormSubmission,
  listPublicBookingForms,
  submitPublicBookingForm,
});
