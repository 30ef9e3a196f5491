import * as z from './zod';
import { FIELD_TYPES, FORM_KINDS, MAX_TEXTAREA_ANSWER, SUBMISSION_SOURCES } from '../domain/forms';
import { doc, IdOf, Instant, meta, OutId, schema, Timestamps } from './common';
import { Name } from './resources';

/** Form templates, submissions and an appointment's forms readiness (API reference, section 14). */

const FormKind = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(FORM_KINDS),
    'intake | medical_history | consent | photo_release. A consent or photo_release form is signed (`signature` required); a consent form also records a section-5 consent.',
    'consent',
  ),
);

const FIELD_KEY = /^[a-z][a-z0-9_]{0,63}$/;

const FieldIn = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      key: doc(
        z.string().check(z.regex(FIELD_KEY, 'lowercase letters, digits and _, starting with a letter (1-64)')),
        'The answer key (`answers.<key>`): lowercase letters, digits and `_`, starting with a letter, 1-64 characters, unique in the template.',
        'allergies',
      ),
      label: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
        'What the client is asked (1-500 characters).',
        'Known allergies',
      ),
      type: doc(
        z.enum(FIELD_TYPES),
        'text (a string, at most 1000 characters) | textarea (at most 10000) | boolean (true or false) | date (YYYY-MM-DD) | select (one of `options`) | multiselect (a list of distinct `options`).',
        'textarea',
      ),
      required: doc(
        z._default(z.boolean(), false),
        'Whether an answer is required (default false): a text must not be blank, a multiselect needs one option; a boolean answer may be true or false.',
        true,
      ),
      options: doc(
        z.optional(
          z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.minLength(1), z.maxLength(100)),
        ),
        'The choices of a select or multiselect field (1-100, unique, each 1-200 characters); required for them, refused for the other types.',
        ['Lidocaine', 'Latex'],
      ),
    }),
    'A field of the form.',
  ),
);

const FieldOut = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      key: doc(z.string(), 'The answer key.', 'allergies'),
      label: doc(z.string(), 'What the client is asked.', 'Known allergies'),
      type: doc(z.enum(FIELD_TYPES), 'The answer type.', 'textarea'),
      required: doc(z.boolean(), 'Whether an answer is required.', true),
      options: doc(z.optional(z.array(z.string())), 'Choices (select and multiselect only; absent otherwise).', [
        'Lidocaine',
        'Latex',
      ]),
    }),
    { description: 'A field of a form template.', id: 'FormField' },
  ),
);

const TemplateShape = /* @__PURE__ */ schema(() => ({
  name: doc(Name, 'Name (1-200 characters).', 'Botox informed consent'),
  kind: FormKind,
  body_markdown: doc(
    z.string().check(z.maxLength(50_000)),
    'The text the client reads, Markdown (at most 50000 characters).',
    'I consent to treatment with botulinum toxin...',
  ),
  fields: doc(z.array(FieldIn).check(z.maxLength(100)), 'The fields (0-100), keys unique.'),
  valid_days: doc(
    z.nullable(z.number().check(z.int(), z.gte(1), z.lte(3650))),
    'A submission stops meeting the requirement `valid_days` × 24 h after it is submitted (1-3650; null or absent: never).',
    365,
  ),
}));

export const CreateFormTemplateBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      ...TemplateShape,
      fields: z._default(TemplateShape.fields, []),
      valid_days: z.optional(TemplateShape.valid_days),
    }),
    'A new form template (version 1).',
  ),
);
export type CreateFormTemplateInput = z.output<typeof CreateFormTemplateBody>;

export const UpdateFormTemplateBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        ...TemplateShape,
        active: doc(z.boolean(), 'Whether it is offered (an inactive template can still be required and read).', false),
      }),
    ),
    'Any subset of the fields and `active`: makes the next version (the earlier ones stay readable, unchanged).',
  ),
);
export type UpdateFormTemplateInput = z.output<typeof UpdateFormTemplateBody>;

export const FormTemplate = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('formTemplate', 'The template id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      name: doc(z.string(), 'Name.', 'Botox informed consent'),
      kind: FormKind,
      body_markdown: doc(
        z.string(),
        'The text the client reads, Markdown.',
        'I consent to treatment with botulinum toxin...',
      ),
      fields: doc(z.array(FieldOut), 'The fields.'),
      valid_days: doc(z.nullable(z.number().check(z.int())), 'Days a submission counts (null: always).', 365),
      active: doc(z.boolean(), 'Whether it is offered.', true),
      ...Timestamps,
    }),
    {
      description:
        'A form template at one version: `version` grows with each PATCH, and every version stays readable at `/v1/form-templates/{id}/versions/{n}`, unchanged.',
      id: 'FormTemplate',
    },
  ),
);
export type FormTemplate = z.output<typeof FormTemplate>;

export const FormTemplateVersionParams = /* @__PURE__ */ schema(() =>
  z.object({
    id: IdOf('formTemplate', 'The template (else 404 FORM_TEMPLATE_NOT_FOUND).'),
    n: z.pipe(
      meta(z.string(), { description: 'The version, from 1 (else 404 FORM_TEMPLATE_NOT_FOUND).', examples: ['2'] }),
      // Not a version number: a version that does not exist (404), as a malformed id is.
      z.transform((value) => (/^[1-9]\d{0,5}$/.test(value) ? Number(value) : 0)),
    ),
  }),
);

export const FormSubmissionParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('formSubmission', 'The submission (else 404 FORM_SUBMISSION_NOT_FOUND).') }),
);

const AnswerValue = /* @__PURE__ */ schema(() =>
  z.union([
    z.string().check(z.maxLength(MAX_TEXTAREA_ANSWER)),
    z.boolean(),
    z.array(z.string()).check(z.maxLength(100)),
  ]),
);

const SubmissionShape = /* @__PURE__ */ schema(() => ({
  template_id: IdOf('formTemplate', 'The template (else 404 FORM_TEMPLATE_NOT_FOUND).'),
  answers: doc(
    z.record(z.string().check(z.maxLength(64)), AnswerValue),
    "Answers by field key, checked against the template's current version at the time of submission (the version the submission pins): a missing required answer, a wrong type, an option not offered or an unknown key is 400 VALIDATION_ERROR at `answers.<key>`. A field that is not required may be left out.",
    { allergies: 'Latex', areas: ['Forehead'], agree: true },
  ),
  signature: doc(
    z.optional(
      z.strictObject({ name: doc(Name, 'The name the client signs with (1-200 characters).', 'Robin Client') }),
    ),
    'Required for consent and photo_release forms (else 400 at `signature`); signed at submission time.',
  ),
}));

export const CreateFormSubmissionBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      ...SubmissionShape,
      appointment_id: z.optional(
        IdOf('appointment', "One of the client's appointments (else 404 APPOINTMENT_NOT_FOUND)."),
      ),
    }),
    'A form the client filled in.',
  ),
);

export const PublicFormSubmissionBody = /* @__PURE__ */ schema(() =>
  doc(z.strictObject(SubmissionShape), 'A form the booking still needs, filled in by the client.'),
);

/** The worked example's hash (its canonical text is in the description below). */
export const DOCUMENT_HASH_EXAMPLE = 'e077ce239fb96c543df47ab7ac64a5a1c8a545b75a0fe41a6e9d565cb3ea7d6b';

/** The canonical text and hash, documented once (docs/decisions/0029); the example is checked by test/unit/forms-hash.test.ts. */
export const DOCUMENT_HASH_DESCRIPTION = [
  'SHA-256 (lowercase hex) of the UTF-8 bytes of the canonical text: the RFC 8785 JSON Canonicalization Scheme (JCS) of the object',
  '`{ template_id, template_version, name, kind, body_markdown, fields, answers, signature_name }`, where `name`, `kind`,',
  "`body_markdown` and `fields` are the template version's as `GET /v1/form-templates/{template_id}/versions/{template_version}` answers them",
  "(a field's `options` only on select kinds), `answers` as the submission holds them and `signature_name` the signature's name or null.",
  'JCS: no whitespace, object members sorted by name (UTF-16 code units), strings escaped as JSON.stringify does, arrays in order.',
  'Example: the template `{ id: "6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e1b", version: 1, name: "Consent", kind: "consent", body_markdown: "I agree.",',
  'fields: [{ key: "agree", label: "I agree", type: "boolean", required: true }] }` answered `{ "agree": true }` and signed by "Robin Client"',
  'has the canonical text',
  '`{"answers":{"agree":true},"body_markdown":"I agree.","fields":[{"key":"agree","label":"I agree","required":true,"type":"boolean"}],"kind":"consent","name":"Consent","signature_name":"Robin Client","template_id":"6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e1b","template_version":1}`',
  `and the hash \`${DOCUMENT_HASH_EXAMPLE}\`.`,
].join(' ');

export const FormSubmission = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('formSubmission', 'The submission id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      client_id: OutId('client', 'The client.'),
      template_id: OutId('formTemplate', 'The template.'),
      template_version: doc(
        z.number().check(z.int()),
        "The template version the answers were checked against (the template's current version when submitted).",
        1,
      ),
      appointment_id: doc(
        z.nullable(OutId('appointment', 'An appointment.')),
        'The appointment it was filled for, if any.',
        null,
      ),
      answers: doc(
        z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())])),
        'The answers by field key.',
        {
          agree: true,
        },
      ),
      signature: doc(
        z.nullable(
          z.object({
            name: doc(z.string(), 'The name signed with.', 'Robin Client'),
            signed_at: Instant('When it was signed: the submission time (UTC).'),
          }),
        ),
        'The signature (consent and photo_release forms), or null.',
      ),
      document_sha256: doc(z.string(), DOCUMENT_HASH_DESCRIPTION, DOCUMENT_HASH_EXAMPLE),
      source: doc(z.enum(SUBMISSION_SOURCES), 'staff (the staff API) or public (a manage link).', 'staff'),
      submitted_at: Instant('When it was submitted (UTC).'),
      expires_at: doc(
        z.nullable(z.string()),
        "When it stops meeting the requirement: `submitted_at` + the template's `valid_days` × 24 h (UTC), or null (never).",
        '2027-11-23T14:05:09.412Z',
      ),
      ...Timestamps,
    }),
    { description: 'A form a client filled in: immutable (`version` is always 1).', id: 'FormSubmission' },
  ),
);
export type FormSubmission = z.output<typeof FormSubmission>;

const FormRef = /* @__PURE__ */ schema(() =>
  z.object({
    template_id: OutId('formTemplate', 'The template.'),
    name: doc(z.string(), 'Its name.', 'Botox informed consent'),
  }),
);

export const FormsReadiness = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      required: doc(
        z.array(FormRef),
        "The templates the appointment's service requires (`required_form_template_ids`).",
      ),
      missing: doc(
        z.array(FormRef),
        "Those not met: no submission of it by the client that has not expired before the appointment's start (`expires_at` null, or at or after `scheduled_at`).",
      ),
      expired: doc(z.array(FormRef), 'Those missing ones whose latest submission expires before the start.'),
    }),
    { description: "Whether the appointment's required forms are done.", id: 'FormsReadiness' },
  ),
);

export const FormNeeded = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      template_id: OutId('formTemplate', 'The template.'),
      name: doc(z.string(), 'Its name (label the form with it).', 'Botox informed consent'),
      version: doc(z.number().check(z.int()), 'Its current version (what a submission is checked against).', 1),
      kind: doc(z.enum(FORM_KINDS), 'Its kind.', 'consent'),
      signature_required: doc(
        z.boolean(),
        'Whether the submission must carry `signature: { name }` (consent and photo release forms).',
        true,
      ),
      body_markdown: doc(z.string(), 'The text the client reads, Markdown.', 'I consent to treatment...'),
      fields: doc(z.array(FieldOut), 'The fields to fill.'),
    }),
    { description: 'A form the booking still needs.', id: 'FormNeeded' },
  ),
);
