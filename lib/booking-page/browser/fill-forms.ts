/// <reference lib="dom" />
import { problemOf, Submission, type PublicForm } from './api';
import type { Context } from './context';
import { h, showMessage, uid } from './dom';
import { describeProblem } from './messages';
import { formRequest, inputOf, SIGNATURE } from './visit-forms';

/**
 * The forms a booking still needs (API reference, forms: the public forms), shown after Booked and
 * on the manage link: each a form labelled with its name, a labelled input per field, Submit; a
 * submitted one says Completed. Nothing shows when none is needed or they cannot be loaded (the
 * practice asks at the visit).
 */
export async function showForms(ctx: Context, box: HTMLElement, appointmentId: string, token: string): Promise<void> {
  const params = { appointment_id: appointmentId };
  let forms: PublicForm[];
  try {
    forms = await ctx.api.get('v1/public/bookings/{appointment_id}/forms', { params }, token);
  } catch {
    return;
  }
  if (!forms.length) return;
  const id = uid('forms');
  box.append(
    h('section', { class: 'step', 'aria-labelledby': id }, h('h2', { id }, 'Forms for your visit'), forms.map(formOf)),
  );

  function formOf(template: PublicForm): HTMLFormElement {
    const nameId = uid('form');
    const errors = new Map<string, HTMLElement>();
    const tick = (attrs: Record<string, string>, text: string) =>
      h('label', { class: 'check' }, h('input', { ...attrs, type: 'checkbox' }), text);
    // A form that needs a signature asks the client's name last, as a field of its own.
    const signature = { key: SIGNATURE, label: 'Your full name (signature)', type: 'text', required: true };
    // Each field with its error line: a labelled input, a checkbox in its label, or a group of
    // checkboxes under a legend; every input named by its key for FormData, described by the error.
    const fields = [...template.fields, ...(template.signature_required ? [signature] : [])].map(
      ({ key, type, label, required, options = [] }: Omit<PublicForm['fields'][number], 'type'> & { type: string }) => {
        const text = required ? label : `${label} (optional)`;
        const id = uid('f');
        const error = h('p', { id: `${id}e`, class: 'field-error', hidden: true });
        errors.set(key, error);
        const attrs = { id, name: key, 'aria-describedby': error.id };
        if (type === 'multiselect')
          return h(
            'fieldset',
            { class: 'field' },
            h('legend', null, text),
            options.map((o) => tick({ name: key, value: o }, o)),
            error,
          );
        const control =
          type === 'select'
            ? h(
                'select',
                attrs,
                h('option', { value: '' }, 'Choose…'),
                options.map((o) => h('option', null, o)),
              )
            : type === 'textarea'
              ? h('textarea', { ...attrs, rows: '3' })
              : h('input', { ...attrs, type: type === 'date' ? 'date' : 'text' });
        return h(
          'div',
          { class: 'field' },
          type === 'boolean' ? tick({ ...attrs, value: 'yes' }, text) : [h('label', { for: id }, text), control],
          error,
        );
      },
    );
    const error = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
    const submit = h('button', { type: 'submit', class: 'primary' }, 'Submit');
    const submission = new Submission();
    const heading = h('h3', { id: nameId }, template.name);
    const form = h(
      'form',
      { 'aria-labelledby': nameId, novalidate: true, onsubmit: send },
      heading,
      template.body_markdown.split(/\n\s*\n/).map((text) => h('p', null, text)),
      fields,
      error,
      submit,
    );
    return form;

    async function send(event: Event): Promise<void> {
      event.preventDefault();
      if (submit.disabled) return;
      const body = formRequest(template, [...new FormData(form)] as [string, string][]);
      for (const line of errors.values()) showMessage(line, null);
      showMessage(error, null);
      submit.disabled = true;
      try {
        await ctx.api.post(
          'v1/public/bookings/{appointment_id}/forms',
          { params, body },
          submission.keyFor(body),
          token,
        );
        submission.settle();
        const done = h('p', { role: 'status', tabindex: '-1' }, 'Completed');
        form.replaceChildren(heading, done);
        done.focus();
      } catch (failure) {
        const problem = problemOf(failure);
        submission.settle(problem);
        submit.disabled = false;
        const marked = problem.details.filter((d) => errors.has(inputOf(d.path) ?? ''));
        for (const detail of marked) showMessage(errors.get(inputOf(detail.path)!)!, detail.message);
        showMessage(
          error,
          marked.length ? 'Check the answers marked above.' : describeProblem(problem, ctx.practice),
          true,
        );
      }
    }
  }
}
