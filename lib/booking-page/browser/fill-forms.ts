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
    h(
      'section',
      { class: 'step', 'aria-labelledby': id },
      h('h2', { id }, 'Forms to fill before your visit'),
      forms.map(formOf),
    ),
  );

  function formOf(template: PublicForm): HTMLFormElement {
    const nameId = uid('form');
    const errors = new Map<string, HTMLElement>();
    // A field with its error line: a labelled input, a checkbox in its label, or a group of checkboxes
    // under a legend; every input named by its key for FormData and described by the error line.
    const row = (key: string, label: string, control: (ids: Record<string, string>) => HTMLElement, shape = 'label') => {
      const id = uid('f');
      const error = h('p', { id: `${id}-e`, class: 'field-error', hidden: true });
      errors.set(key, error);
      const group = shape === 'group';
      const ids = { id, name: key, 'aria-describedby': error.id };
      return h(
        group ? 'fieldset' : 'div',
        { class: 'field', 'aria-describedby': group ? error.id : null },
        group ? h('legend', null, label) : shape === 'label' ? h('label', { for: id }, label) : null,
        control(ids),
        error,
      );
    };
    const tick = (attrs: Record<string, string>, label: string) =>
      h('label', { class: 'check' }, h('input', { ...attrs, type: 'checkbox' }), label);
    const fields = template.fields.map(({ key, type, label: text, required, options = [] }) => {
      const label = `${text}${required ? '' : ' (optional)'}`;
      switch (type) {
        case 'boolean':
          return row(key, label, (ids) => tick({ ...ids, value: 'yes' }, label), 'check');
        case 'multiselect':
          return row(key, label, () => h('div', null, options.map((o) => tick({ name: key, value: o }, o))), 'group');
        case 'select':
          return row(key, label, (ids) =>
            h('select', ids, h('option', { value: '' }, 'Choose…'), options.map((o) => h('option', null, o))),
          );
        case 'textarea':
          return row(key, label, (ids) => h('textarea', { ...ids, rows: '3' }));
        default:
          return row(key, label, (ids) => h('input', { ...ids, type: type === 'date' ? 'date' : 'text' }));
      }
    });
    const error = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
    const submit = h('button', { type: 'submit', class: 'primary' }, 'Submit');
    const submission = new Submission();
    const form = h(
      'form',
      { 'aria-labelledby': nameId, novalidate: true, onsubmit: send },
      h('h3', { id: nameId }, template.name),
      template.body_markdown.split(/\n\s*\n/).map((text) => h('p', null, text)),
      fields,
      template.signature_required
        ? row(SIGNATURE, 'Your full name, as your signature', (ids) => h('input', { ...ids, autocomplete: 'name' }))
        : null,
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
        await ctx.api.post('v1/public/bookings/{appointment_id}/forms', { params, body }, submission.keyFor(body), token);
        submission.settle();
        const done = h('p', { role: 'status', tabindex: '-1' }, 'Completed');
        form.replaceChildren(h('h3', { id: nameId }, template.name), done);
        done.focus();
      } catch (failure) {
        const problem = problemOf(failure);
        submission.settle(problem);
        submit.disabled = false;
        const marked = problem.details.filter((d) => errors.has(inputOf(d.path) ?? ''));
        for (const detail of marked) showMessage(errors.get(inputOf(detail.path)!)!, detail.message);
        showMessage(error, marked.length ? 'Please check the answers marked above.' : describeProblem(problem, ctx.practice), true);
      }
    }
  }
}
