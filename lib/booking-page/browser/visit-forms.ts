import type { PublicForm } from './api';

/** The visit's forms apart from the DOM: what a filled form sends, and which field a refusal names. */

/** The name the signature's input has in the form (never a template field's key: those are the API's). */
export const SIGNATURE = ' signature';

/**
 * POST /v1/public/bookings/{id}/forms's body from the form's entries (FormData's order, values as
 * typed): a checkbox answers true or false, a multiselect the options ticked, other fields their
 * trimmed text; an empty answer is left out, so the API says which required one is missing.
 */
export function formRequest(form: PublicForm, entries: [string, string][]) {
  const answers: Record<string, string | boolean | string[]> = {};
  const valuesOf = (name: string) =>
    entries.filter(([key, value]) => key === name && value.trim()).map(([, value]) => value.trim());
  for (const field of form.fields) {
    const values = valuesOf(field.key);
    if (field.type === 'boolean') answers[field.key] = values.length > 0;
    else if (field.type === 'multiselect') values.length && (answers[field.key] = values);
    else if (values.length) answers[field.key] = values[0];
  }
  const [name] = valuesOf(SIGNATURE);
  return {
    template_id: form.template_id,
    answers,
    ...(form.signature_required ? { signature: { name: name ?? '' } } : {}),
  };
}

/** The input a VALIDATION_ERROR detail names: `answers.<key>` a field, `signature…` the signature. */
export const inputOf = (path: string) =>
  path.startsWith('answers.') ? path.slice('answers.'.length) : path.startsWith('signature') ? SIGNATURE : null;
