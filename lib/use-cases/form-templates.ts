import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { commitTemplate, findTemplate, findTemplates, findTemplateVersion, listTemplates } from '../db/forms';
import { DataFailure } from '../db/failure';
import type { RequestWrites } from '../db/request-writes';
import { changesNothing } from '../db/update';
import { templateProblems, type FormField } from '../domain/forms';
import type { FormTemplateRecord } from '../domain/records';
import { AppError } from '../errors';
import type { CreateFormTemplateInput, UpdateFormTemplateInput } from '../schemas/forms';
import { toListResult, type ListResult } from './list-result';
import type { WriteOptions } from './resources';

/**
 * Form templates (API reference, section 14): each change is a new version written with the
 * current one in one transaction conditioned on the version read (docs/decisions/0029). A PATCH
 * without If-Match that loses a race is applied again on the newer version (its fields are a
 * partial change, so they apply to any version); with If-Match it is 409 VERSION_CONFLICT.
 */

/** How often a PATCH without If-Match is applied again after a concurrent PATCH won. */
const PATCH_ATTEMPTS = 10;

/** The fields as stored: `options` only where the type takes them (a template's own problems are 400 first). */
function storedFields(fields: readonly (FormField & { options?: string[] })[]): FormField[] {
  const problems = templateProblems(fields);
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', problems[0]!.message, { details: problems });
  return fields.map(({ key, label, type, required, options }) =>
    options === undefined ? { key, label, type, required } : { key, label, type, required, options },
  );
}

export async function createFormTemplate(
  medspaId: string,
  input: CreateFormTemplateInput,
  now: Date,
  writes?: RequestWrites,
): Promise<FormTemplateRecord> {
  const at = now.toISOString();
  const template: FormTemplateRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    name: input.name,
    kind: input.kind,
    body_markdown: input.body_markdown,
    fields: storedFields(input.fields),
    valid_days: input.valid_days ?? null,
    active: true,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const outcome = await commitTemplate(template, null, writes);
  // A new random id is never taken: a failure here is the data's, not the caller's.
  if (!outcome.ok) throw new DataFailure('collision', `form template ${template.id} already exists`);
  return template;
}

export async function changeFormTemplate(
  medspaId: string,
  id: string,
  input: UpdateFormTemplateInput,
  options: WriteOptions,
): Promise<FormTemplateRecord> {
  const changes: Partial<FormTemplateRecord> = {
    name: input.name,
    kind: input.kind,
    body_markdown: input.body_markdown,
    fields: input.fields === undefined ? undefined : storedFields(input.fields),
    valid_days: input.valid_days,
    active: input.active,
  };
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  for (let attempt = 1; ; attempt++) {
    const current = await readFormTemplate(medspaId, id);
    if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
    // A PATCH of nothing, or of the values it has, is no change: no new version.
    if (changesNothing(given, current)) return current;
    const next: FormTemplateRecord = {
      ...current,
      ...given,
      version: current.version + 1,
      updated_at: options.now.toISOString(),
    };
    const outcome = await commitTemplate(next, current.version, options.writes);
    if (outcome.ok) return next;
    if (options.ifMatch !== undefined || attempt >= PATCH_ATTEMPTS) throw new AppError('VERSION_CONFLICT');
  }
}

export async function readFormTemplate(medspaId: string, id: string): Promise<FormTemplateRecord> {
  const template = await findTemplate(medspaId, id);
  if (!template) throw new AppError('FORM_TEMPLATE_NOT_FOUND');
  return template;
}

export async function readFormTemplateVersion(medspaId: string, id: string, n: number): Promise<FormTemplateRecord> {
  const template = n >= 1 ? await findTemplateVersion(medspaId, id, n) : null;
  if (!template) throw new AppError('FORM_TEMPLATE_NOT_FOUND');
  return template;
}

/** Current versions, in id order. */
export async function listFormTemplates(
  medspaId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<FormTemplateRecord>> {
  return toListResult(await listTemplates(medspaId, pageRequest(medspaId, 'form-templates', query)));
}

/** Unique template ids, in order, each a template of the practice (else 404 FORM_TEMPLATE_NOT_FOUND): a service's requirements. */
export async function checkFormTemplates(medspaId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await findTemplates(medspaId, unique);
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw new AppError('FORM_TEMPLATE_NOT_FOUND', `Form template ${missing} does not exist`);
  return unique;
}
