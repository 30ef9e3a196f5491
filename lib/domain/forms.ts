import { createHash } from 'node:crypto';

/**
 * Forms and e-consent (API reference, section 14), pure: a template's own rules, the answers
 * validator built from a template version's fields at run time, the signature rule, the canonical
 * text and its SHA-256, expiry, and readiness of an appointment (docs/decisions/0029).
 */

export const FORM_KINDS = ['intake', 'medical_history', 'consent', 'photo_release'] as const;
export type FormKind = (typeof FORM_KINDS)[number];
export const FIELD_TYPES = ['text', 'textarea', 'boolean', 'date', 'select', 'multiselect'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const SUBMISSION_SOURCES = ['staff', 'public'] as const;
export type SubmissionSource = (typeof SUBMISSION_SOURCES)[number];

/** A template field as stored and answered: `options` only on select kinds. */
export interface FormField {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  options?: string[];
}

export type AnswerValue = string | boolean | string[];
export type Answers = Record<string, AnswerValue>;

export interface FieldProblem {
  path: string;
  message: string;
}

/** Longest answer of each text type (a 256 KiB body bounds the whole). */
export const MAX_TEXT_ANSWER = 1000;
export const MAX_TEXTAREA_ANSWER = 10_000;

const hasOptions = (type: FieldType) => type === 'select' || type === 'multiselect';

/** A template's own problems: keys unique, options on select kinds only (required there, unique). */
export function templateProblems(fields: readonly FormField[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  fields.forEach((field, index) => {
    if (seen.has(field.key)) problems.push({ path: `fields.${index}.key`, message: `key ${field.key} is used twice` });
    seen.add(field.key);
    if (hasOptions(field.type)) {
      if (!field.options || field.options.length === 0)
        problems.push({ path: `fields.${index}.options`, message: `a ${field.type} field needs options` });
      else if (new Set(field.options).size !== field.options.length)
        problems.push({ path: `fields.${index}.options`, message: 'options must be unique' });
    } else if (field.options !== undefined) {
      problems.push({ path: `fields.${index}.options`, message: `a ${field.type} field takes no options` });
    }
  });
  return problems;
}

/** A real calendar date written `YYYY-MM-DD`. */
export function isPlainDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** One answer's problem against its field, or null. */
function answerProblem(field: FormField, value: unknown): string | null {
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (typeof value !== 'string') return 'must be a string';
      const max = field.type === 'text' ? MAX_TEXT_ANSWER : MAX_TEXTAREA_ANSWER;
      if (value.length > max) return `at most ${max} characters`;
      if (field.required && value.trim() === '') return 'is required';
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isPlainDate(value) ? null : 'must be a date (YYYY-MM-DD)';
    case 'select':
      if (typeof value !== 'string') return 'must be one of the options';
      return field.options?.includes(value) ? null : `${JSON.stringify(value)} is not an option`;
    case 'multiselect': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return 'must be a list of options';
      const offered = value.find((v) => !field.options?.includes(v));
      if (offered !== undefined) return `${JSON.stringify(offered)} is not an option`;
      if (new Set(value).size !== value.length) return 'each option at most once';
      if (field.required && value.length === 0) return 'choose at least one option';
      return null;
    }
  }
}

/**
 * The validator of one template version's answers, built from its fields: every problem at
 * `answers.<key>` (a missing required answer, a wrong type, an option not offered, an unknown key).
 * A field that is not required may be left out.
 */
export function answersValidator(fields: readonly FormField[]): (answers: Record<string, unknown>) => FieldProblem[] {
  const byKey = new Map(fields.map((field) => [field.key, field]));
  return (answers) => {
    const problems: FieldProblem[] = [];
    for (const field of fields) {
      const path = `answers.${field.key}`;
      if (!Object.hasOwn(answers, field.key)) {
        if (field.required) problems.push({ path, message: 'is required' });
        continue;
      }
      const problem = answerProblem(field, answers[field.key]);
      if (problem) problems.push({ path, message: problem });
    }
    for (const key of Object.keys(answers))
      if (!byKey.has(key)) problems.push({ path: `answers.${key}`, message: 'unknown field' });
    return problems;
  };
}

/** Kinds that are a signed document: a submission of one needs `signature`. */
export const needsSignature = (kind: FormKind) => kind === 'consent' || kind === 'photo_release';

/** The signature rule: consent and photo release forms are signed. */
export function signatureProblem(kind: FormKind, signature: { name: string } | null | undefined): FieldProblem | null {
  return needsSignature(kind) && !signature ? { path: 'signature', message: `a ${kind} form must be signed` } : null;
}

/** What the document hash covers: the template version as shown and what the client answered and signed. */
export interface SignedDocument {
  template_id: string;
  template_version: number;
  name: string;
  kind: FormKind;
  body_markdown: string;
  fields: readonly FormField[];
  answers: Answers;
  signature_name: string | null;
}

/**
 * RFC 8785 JSON Canonicalization Scheme for the values a document holds (strings, booleans,
 * integers, null, arrays, objects): no whitespace, object members sorted by their names' UTF-16
 * code units, strings escaped as ECMAScript's JSON.stringify does, members whose value is
 * undefined left out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('not a JSON number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
}

/** The canonical text of a signed document (docs/decisions/0029): JCS of its eight members. */
export const canonicalText = (document: SignedDocument): string =>
  canonicalJson({
    template_id: document.template_id,
    template_version: document.template_version,
    name: document.name,
    kind: document.kind,
    body_markdown: document.body_markdown,
    fields: document.fields,
    answers: document.answers,
    signature_name: document.signature_name,
  });

/** `document_sha256`: lowercase hex SHA-256 of the canonical text's UTF-8 bytes. */
export const documentSha256 = (document: SignedDocument): string =>
  createHash('sha256').update(canonicalText(document), 'utf8').digest('hex');

/** When a submission stops counting: `valid_days` × 24 h after it, or never (null). */
export const expiryOf = (submittedAt: string, validDays: number | null): string | null =>
  validDays === null ? null : new Date(Date.parse(submittedAt) + validDays * 86_400_000).toISOString();

/** A client's latest expiry per template in the forms summary: `NEVER` for a submission that never expires. */
export const NEVER = '9999-12-31T23:59:59.999Z';

export interface FormRef {
  template_id: string;
  name: string;
}

export interface FormsReadiness {
  required: FormRef[];
  missing: FormRef[];
  expired: FormRef[];
}

/**
 * An appointment's forms: a required template is met by a submission that has not expired before
 * the start (its latest expiry, `NEVER` for none, at or after `startsAt`); `missing` are those not
 * met, `expired` those of them that had a submission (its latest expiry before the start).
 */
export function readinessOf(
  requiredIds: readonly string[],
  nameOf: (templateId: string) => string,
  latestExpiry: (templateId: string) => string | undefined,
  startsAt: string,
): FormsReadiness {
  const required = [...new Set(requiredIds)].map((id) => ({ template_id: id, name: nameOf(id) }));
  const missing = required.filter((ref) => {
    const latest = latestExpiry(ref.template_id);
    return latest === undefined || latest < startsAt;
  });
  const expired = missing.filter((ref) => latestExpiry(ref.template_id) !== undefined);
  return { required, missing, expired };
}
