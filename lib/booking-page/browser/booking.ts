/// <reference lib="dom" />
import { problemOf, Submission, type Booking, type Problem, type Service } from './api';
import { manageLink, type Context } from './context';
import { depositOf } from './deposit';
import { announce, button, fill, focusTarget, h, showMessage, uid } from './dom';
import { bookingFailure, bookingRequest, checkDetails, FIELD_LABELS, type FieldName, type Values } from './form';
import { clock, longDate, localDate, minutes, money, period, when, zoneName } from './format';
import { Holder, timeLeft, type Held } from './hold';
import { showForms } from './fill-forms';
import { describeProblem } from './messages';
import { createPicker, type Choice, type Picker } from './picker';
import { details } from './summary';

interface Field {
  name: FieldName;
  label: string;
  input: HTMLInputElement | HTMLTextAreaElement;
  hint: HTMLElement | null;
  error: HTMLElement;
}

/**
 * The current booking view: its hold is released when the page is left (sent with keepalive);
 * back from the back-forward cache, its form says the time is no longer held and shows the times.
 */
let current: { hold: Holder; returned(): void } | null = null;
addEventListener('pagehide', () => current?.hold.leave());
addEventListener('pageshow', (event) => void ((event as PageTransitionEvent).persisted && current?.returned()));

const problemWith = (code: Problem['code']): Problem => ({
  status: 409,
  code,
  message: '',
  details: [],
  retryAfter: null,
});

/**
 * The booking view: service, day and time (held for the client while the form is open), the
 * client's details, Book, the confirmation.
 */
export async function showBooking(ctx: Context): Promise<void> {
  const { api, practice, content } = ctx;
  const servicesBox = h('div', { class: 'step' }, h('p', { class: 'caption' }, 'Loading services…'));
  fill(content, servicesBox);
  let services: Service[];
  try {
    const answer = await api.get('v1/public/services', {});
    services = Array.isArray(answer) ? answer : [];
  } catch (error) {
    const problem = problemOf(error);
    fill(
      servicesBox,
      h('p', { class: 'notice', role: 'alert' }, describeProblem(problem, practice)),
      button('secondary', 'Try again', () => showBooking(ctx)),
    );
    return;
  }
  if (!services.length) {
    fill(
      servicesBox,
      h('p', { class: 'notice' }, 'No services can be booked online right now. Please contact the practice.'),
    );
    return;
  }

  let service: Service | null = null;
  let picker: Picker | null = null;
  let choice: Choice | null = null;
  const submission = new Submission();
  const hold = new Holder(api, () => void back(describeProblem(problemWith('HOLD_EXPIRED'))));

  // Services, grouped by category when the practice uses categories.
  const servicesId = uid('services');
  const serviceButtons = new Map<string, HTMLButtonElement>();
  const serviceItem = (s: Service) => {
    const deposit = depositOf(s, practice);
    const descriptions = [
      s.description,
      deposit &&
        `Asks a deposit of ${money(deposit.cents, practice.currency)}: book it with the practice.${deposit.note ? ` ${deposit.note}` : ''}`,
    ].flatMap((text) => (text ? [h('p', { id: uid('desc'), class: 'desc' }, text)] : []));
    const button = h(
      'button',
      {
        type: 'button',
        class: 'service',
        'aria-pressed': 'false',
        'aria-describedby': descriptions.map((d) => d.id).join(' ') || null,
        onclick: () => chooseService(s),
      },
      h('span', { class: 'name' }, s.name),
      ' ',
      h(
        'span',
        { class: 'meta' },
        `${minutes(s.duration_minutes)} · ${money(s.price_cents, practice.currency)}${deposit ? ` · deposit ${money(deposit.cents, practice.currency)}` : ''}`,
      ),
    );
    serviceButtons.set(s.id, button);
    return h('li', null, button, descriptions);
  };
  const categories = [...new Set(services.map((s) => s.category || ''))];
  const lists =
    categories.length > 1
      ? categories.map((category) => [
          h('h3', null, category || 'Other'),
          h('ul', { class: 'services' }, services.filter((s) => (s.category || '') === category).map(serviceItem)),
        ])
      : [h('ul', { class: 'services' }, services.map(serviceItem))];
  fill(servicesBox);
  servicesBox.setAttribute('role', 'group');
  servicesBox.setAttribute('aria-labelledby', servicesId);
  servicesBox.append(h('h2', { id: servicesId }, 'Services'), ...lists.flat());

  const pickerSlot = h('div');

  // The client's details.
  const field = (name: FieldName, attrs: Record<string, string | boolean>, hintText?: string): Field => {
    const id = uid(name);
    const hint = hintText ? h('p', { id: `${id}-hint`, class: 'hint' }, hintText) : null;
    const input =
      name === 'notes'
        ? h('textarea', { id, name, rows: '3', maxlength: '5000', 'aria-describedby': hint?.id })
        : h('input', { id, name, ...attrs, 'aria-describedby': hint?.id });
    return {
      name,
      label: FIELD_LABELS[name],
      input,
      hint,
      error: h('p', { id: `${id}-error`, class: 'field-error', hidden: true }),
    };
  };
  const fields: Field[] = [
    field('first_name', { type: 'text', autocomplete: 'given-name', required: true, maxlength: '200' }),
    field('last_name', { type: 'text', autocomplete: 'family-name', required: true, maxlength: '200' }),
    field('email', { type: 'email', autocomplete: 'email', required: true, maxlength: '254', spellcheck: 'false' }),
    field('phone', { type: 'tel', autocomplete: 'tel', maxlength: '40' }, 'Optional'),
    field('notes', {}, 'Optional: anything the practice should know'),
  ];
  const byName = (name: FieldName) => fields.find((f) => f.name === name)!;
  const values = () => Object.fromEntries(fields.map((f) => [f.name, f.input.value.trim()])) as Values;
  const summary = h('p', { class: 'summary' });
  // The hold's countdown: shown each second; said (role=status, polite) when held and once a minute.
  const holdText = h('span');
  const holdClock = h('b');
  const holdStatus = h('span', { class: 'visually-hidden', role: 'status' });
  const holdError = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
  const formError = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
  const book = h('button', { type: 'submit', class: 'primary' }, 'Book');
  const detailsId = uid('details');
  const form = h(
    'form',
    {
      class: 'step',
      'aria-labelledby': detailsId,
      novalidate: true,
      hidden: true,
      onsubmit: (event: Event) => submit(event),
    },
    h('h2', { id: detailsId }, 'Your details'),
    summary,
    h('p', { class: 'hold' }, h('span', { 'aria-hidden': 'true' }, holdText, ' ', holdClock), holdStatus),
    fields.map((f) => h('div', { class: 'field' }, h('label', { for: f.input.id }, f.label), f.hint, f.input, f.error)),
    formError,
    book,
  );
  content.append(pickerSlot, holdError, form);
  // The times are reloaded once the release has gone through, so they offer the released time.
  current = {
    hold,
    returned: () =>
      void (form.hidden || hold.release().then(() => back(describeProblem(problemWith('HOLD_NOT_ACTIVE'))))),
  };

  function chooseService(next: Service): void {
    service = next;
    for (const [id, button] of serviceButtons) button.setAttribute('aria-pressed', String(id === next.id));
    void chooseTime(null);
    const deposit = depositOf(next, practice);
    if (deposit) {
      // No times: the page takes no payments (API reference, public holds).
      picker = null;
      const note = h(
        'p',
        { class: 'summary' },
        `${next.name} asks a deposit of ${money(deposit.cents, practice.currency)} when it is booked, which this page cannot take. Please call or contact the practice to book it.`,
      );
      fill(pickerSlot, note);
      announce(note.textContent!);
      return;
    }
    picker = createPicker({ api, practice, serviceId: next.id, onChoose: chooseTime });
    fill(pickerSlot, picker.element);
    describeChoice();
    announce(`${next.name} selected. Loading days and times.`);
    void picker.begin();
  }

  /** A time was picked: the old hold is released, this one held, then the form is shown; null: back to the times. */
  async function chooseTime(next: Choice | null): Promise<void> {
    choice = next;
    describeChoice();
    showMessage(formError, null);
    showMessage(holdError, null);
    countdown(null);
    form.hidden = !next;
    if (!next) return void hold.release();
    let held: Held | null;
    try {
      held = await hold.hold(service!.id, next);
    } catch (error) {
      const problem = problemOf(error);
      form.hidden = true;
      const failure = bookingFailure(problem);
      if (failure.kind === 'times') return picker?.refresh(describeProblem(problem, practice));
      if (failure.kind === 'service') serviceButtons.get(service!.id)?.setAttribute('disabled', '');
      return showMessage(holdError, describeProblem(problem, practice), true);
    }
    if (!held) return;
    countdown(held);
    holdStatus.textContent = `${clock(next.start, practice.time_zone)} on ${longDate(localDate(next.start, practice.time_zone))} is held for you for ${period(timeLeft(held.deadline, Date.now()).minutes)}.`;
    (fields.find((f) => f.name !== 'notes' && f.input.required && !f.input.value.trim())?.input ?? book).focus();
  }

  let ticking: ReturnType<typeof setInterval> | undefined;
  /** Shows the time left on the hold each second (null: holding, or no hold), and says it when the minute changes. */
  function countdown(held: Held | null): void {
    clearInterval(ticking);
    holdText.textContent = held ? 'Held for you for' : 'Holding this time for you…';
    holdClock.textContent = '';
    holdStatus.textContent = '';
    book.setAttribute('aria-disabled', String(!held));
    if (!held) return;
    let said = timeLeft(held.deadline, Date.now()).minutes;
    const tick = () => {
      const left = timeLeft(held.deadline, Date.now());
      holdClock.textContent = left.clock;
      if (left.minutes < said) holdStatus.textContent = `${period((said = left.minutes))} left to book this time.`;
    };
    tick();
    ticking = setInterval(tick, 1000);
  }

  /** The hold is gone: back to fresh times, the reason above them (a click on a time holds it again). */
  async function back(message: string): Promise<void> {
    hold.forget();
    countdown(null);
    form.hidden = true;
    await picker?.refresh(message);
  }

  function describeChoice(): void {
    summary.textContent =
      service && choice
        ? `${service.name}${choice.providerName ? ` with ${choice.providerName}` : ''}: ${when(choice.start, practice.time_zone)} (${zoneName(practice.time_zone)}), ${minutes(service.duration_minutes)}, ${money(service.price_cents, practice.currency)}`
        : 'Choose a time above.';
  }

  function setFieldError(f: Field, message: string | null): void {
    showMessage(f.error, message);
    const described = [f.hint?.id, message ? f.error.id : null].filter(Boolean).join(' ');
    if (message) f.input.setAttribute('aria-invalid', 'true');
    else f.input.removeAttribute('aria-invalid');
    if (described) f.input.setAttribute('aria-describedby', described);
    else f.input.removeAttribute('aria-describedby');
  }

  function check(): Field | null {
    let first: Field | null = null;
    for (const [name, message] of checkDetails(values())) {
      setFieldError(byName(name), message);
      if (message && !first) first = byName(name);
    }
    return first;
  }

  let sending = false;
  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    const held = hold.current;
    if (sending || !service || !held) return;
    showMessage(formError, null);
    const invalid = check();
    if (invalid) {
      invalid.input.focus();
      return;
    }
    const body = bookingRequest(held.hold.hold_id, values());
    const idempotencyKey = submission.keyFor(body);
    sending = true;
    book.setAttribute('aria-disabled', 'true');
    book.textContent = 'Booking…';
    try {
      const booking = await api.post('v1/public/bookings', { body }, idempotencyKey, held.hold.hold_token);
      submission.settle();
      hold.forget();
      countdown(null);
      confirm(booking, service);
    } catch (error) {
      const problem = problemOf(error);
      submission.settle(problem);
      await fail(problem);
    } finally {
      sending = false;
      book.setAttribute('aria-disabled', String(!hold.current));
      book.textContent = 'Book';
    }
  }

  async function fail(problem: Problem): Promise<void> {
    const message = describeProblem(problem, practice);
    const failure = bookingFailure(problem);
    if (failure.kind === 'times' || failure.kind === 'hold') {
      // A time refused at booking is of no use held: it is released (picker.refresh drops the pick).
      if (failure.kind === 'hold') hold.forget();
      form.hidden = true;
      await picker?.refresh(message);
    } else if (failure.kind === 'fields') {
      for (const [name, reason] of failure.fields) setFieldError(byName(name), `${FIELD_LABELS[name]}: ${reason}`);
      const first = fields.find((f) => f.input.getAttribute('aria-invalid') === 'true');
      showMessage(formError, message);
      first?.input.focus();
    } else if (failure.kind === 'service') {
      showMessage(formError, message, true);
      serviceButtons.get(service!.id)?.setAttribute('disabled', '');
    } else {
      showMessage(
        formError,
        message + (failure.again ? ' Press Book to try again: you will not be booked twice.' : ''),
        true,
      );
    }
  }

  function confirm(booking: Booking, bookedService: Service): void {
    const link = manageLink(location.href, ctx.key, booking.appointment_id, booking.manage_token);
    const heading = focusTarget('h2', { class: 'done' }, 'Booked');
    const forms = h('div');
    fill(
      content,
      h(
        'section',
        { class: 'step confirmation', 'aria-label': 'Confirmation' },
        heading,
        h(
          'p',
          null,
          `You are booked for ${booking.service.name} with ${booking.provider.display_name} on ${when(booking.scheduled_at, practice.time_zone)} (${zoneName(practice.time_zone)}).`,
        ),
        details(booking, practice, bookedService.id === booking.service.id ? bookedService.price_cents : null),
        h('p', null, h('a', { href: link, class: 'manage' }, 'Manage your booking')),
        h('p', { class: 'hint' }, 'Keep this link to reschedule or cancel. Anyone who has it can change this booking.'),
        forms,
        button('secondary', 'Book another appointment', () => void showBooking(ctx).then(ctx.toTop)),
      ),
    );
    ctx.toTop();
    heading.focus();
    void showForms(ctx, forms, booking.appointment_id, booking.manage_token);
  }
}
