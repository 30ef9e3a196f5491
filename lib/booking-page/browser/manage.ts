/// <reference lib="dom" />
import { problemOf, retryable, Submission, timeRefused, type Booking, type Problem } from './api';
import { bookLink, manageLink, tokenFromFragment, type Context } from './context';
import { button, fill, focusTarget, h, showMessage, uid } from './dom';
import { period, when, zoneName } from './format';
import { describeProblem } from './messages';
import { showForms } from './fill-forms';
import { createPicker, type Choice } from './picker';
import { changesClosed, details, isChangeable } from './summary';

/**
 * The manage view (`/book?key=pk_...&booking=<appointment_id>#token=<manage_token>`): the booking
 * with its current status, and, until the practice's cut-off, Reschedule (same service and
 * provider) and Cancel, each sent with the token as X-Booking-Token.
 */
export async function showManage(ctx: Context, appointmentId: string): Promise<void> {
  const { api, practice, content } = ctx;
  let token = tokenFromFragment(location.href);
  const params = { appointment_id: appointmentId };
  const another = () => h('p', null, h('a', { href: bookLink(location.href, ctx.key) }, 'Book another appointment'));

  if (!token) {
    fill(
      content,
      h(
        'p',
        { class: 'notice', role: 'alert' },
        'This link is missing its access code. Open the full link from your booking confirmation.',
      ),
      another(),
    );
    return;
  }
  fill(content, h('p', { class: 'caption' }, 'Loading your booking…'));
  let booking: Booking;
  try {
    booking = await api.get('v1/public/bookings/{appointment_id}', { params }, token);
  } catch (error) {
    const problem = problemOf(error);
    fill(
      content,
      h('p', { class: 'notice', role: 'alert' }, describeProblem(problem, practice)),
      retryable(problem) ? button('secondary', 'Try again', () => showManage(ctx, appointmentId)) : null,
      another(),
    );
    return;
  }
  render(booking, 'Your booking', null, false);

  function render(current: Booking, title: string, note: string | null, focus: boolean): void {
    booking = current;
    const heading = focusTarget('h2', {}, title);
    const panel = h('div', { class: 'panel' });
    const error = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
    const cutoff = practice.online_booking.cancel_cutoff_minutes;
    let actions: HTMLElement | null = null;
    const forms = h('div');
    if (!isChangeable(current)) {
      actions = current.status === 'cancelled' ? h('p', null, 'This booking is cancelled.') : null;
    } else if (changesClosed(current, cutoff, Date.now())) {
      actions = h(
        'p',
        { class: 'hint' },
        `Online changes close ${period(cutoff)} before the appointment. To change it now, please contact the practice.`,
      );
    } else {
      actions = h(
        'div',
        { class: 'actions' },
        button('secondary', 'Reschedule', () => reschedule(panel, error)),
        button('secondary', 'Cancel booking', () => cancel(panel, error)),
      );
    }
    fill(
      content,
      h(
        'section',
        { class: 'step', 'aria-labelledby': (heading.id = uid('booking')) },
        heading,
        note ? h('p', null, note) : null,
        details(current, practice, null),
        actions,
        panel,
        error,
      ),
      forms,
      another(),
    );
    // Forms the visit still needs, while it can still happen.
    if (isChangeable(current)) void showForms(ctx, forms, appointmentId, token!);
    if (focus) {
      ctx.toTop();
      heading.focus();
    }
  }

  /** A change answers the booking with the token that manages it now (a reschedule's is new). */
  function adopt(answer: Booking): Booking {
    if (answer.manage_token !== token) {
      // The address bar (and a bookmark of it) keeps working.
      token = answer.manage_token;
      history.replaceState(null, '', manageLink(location.href, ctx.key, answer.appointment_id, token));
    }
    return answer;
  }

  function failed(problem: Problem, error: HTMLElement): void {
    if (problem.code === 'CANCEL_WINDOW_CLOSED' || problem.code === 'APPOINTMENT_NOT_FOUND') {
      // Nothing more can be done here: say why, without the buttons.
      fill(
        content,
        h('p', { class: 'notice', role: 'alert', tabindex: '-1' }, describeProblem(problem, practice)),
        button('secondary', 'Show the booking again', () => showManage(ctx, appointmentId)),
        another(),
      );
      (content.firstElementChild as HTMLElement).focus();
      return;
    }
    showMessage(error, describeProblem(problem, practice) + (retryable(problem) ? ' Then try again.' : ''), true);
  }

  function cancel(panel: HTMLElement, error: HTMLElement): void {
    showMessage(error, null);
    const id = uid('reason');
    const reason = h('textarea', { id, rows: '2', maxlength: '1000' });
    const submission = new Submission();
    let sending = false;
    const confirmButton = h('button', { type: 'submit', class: 'danger' }, 'Confirm cancellation');
    const form = h(
      'form',
      {
        class: 'step',
        novalidate: true,
        onsubmit: async (event: Event) => {
          event.preventDefault();
          if (sending) return;
          sending = true;
          confirmButton.setAttribute('aria-disabled', 'true');
          const text = reason.value.trim();
          const body = text ? { reason: text } : {};
          try {
            const answer = await api.post(
              'v1/public/bookings/{appointment_id}/cancel',
              { params, body },
              submission.keyFor(body),
              token,
            );
            submission.settle();
            render(
              adopt(answer),
              'Cancelled',
              `Your appointment on ${when(booking.scheduled_at, practice.time_zone)} is cancelled.`,
              true,
            );
          } catch (caught) {
            const problem = problemOf(caught);
            submission.settle(problem);
            failed(problem, error);
          } finally {
            sending = false;
            confirmButton.removeAttribute('aria-disabled');
          }
        },
      },
      h('h3', null, 'Cancel this booking?'),
      h('div', { class: 'field' }, h('label', { for: id }, 'Reason (optional)'), reason),
      h(
        'div',
        { class: 'actions' },
        confirmButton,
        button('secondary', 'Keep booking', () => fill(panel)),
      ),
    );
    fill(panel, form);
    reason.focus();
  }

  function reschedule(panel: HTMLElement, error: HTMLElement): void {
    showMessage(error, null);
    const submission = new Submission();
    let choice: Choice | null = null;
    let sending = false;
    const chosen = h('p', { class: 'summary' }, 'Choose a new day and time.');
    const confirmButton = h('button', { type: 'button', class: 'primary', disabled: true }, 'Confirm new time');
    const picker = createPicker({
      api,
      practice,
      serviceId: booking.service.id,
      providerId: booking.provider.id,
      heading: 'h3',
      onChoose: (next) => {
        choice = next;
        confirmButton.disabled = !next;
        chosen.textContent = next
          ? `New time: ${when(next.start, practice.time_zone)} (${zoneName(practice.time_zone)}) with ${booking.provider.display_name}`
          : 'Choose a new day and time.';
        if (next) confirmButton.focus();
      },
    });
    confirmButton.addEventListener('click', async () => {
      if (sending || !choice) return;
      sending = true;
      confirmButton.setAttribute('aria-disabled', 'true');
      showMessage(error, null);
      const body = { scheduled_at: choice.start };
      try {
        const answer = await api.post(
          'v1/public/bookings/{appointment_id}/reschedule',
          { params, body },
          submission.keyFor(body),
          token,
        );
        submission.settle();
        const moved = adopt(answer);
        render(
          moved,
          'Rescheduled',
          `Your appointment is now on ${when(moved.scheduled_at, practice.time_zone)}.`,
          true,
        );
      } catch (caught) {
        const problem = problemOf(caught);
        submission.settle(problem);
        if (timeRefused(problem)) await picker.refresh(describeProblem(problem, practice));
        else failed(problem, error);
      } finally {
        sending = false;
        confirmButton.removeAttribute('aria-disabled');
      }
    });
    fill(
      panel,
      h('h3', null, 'Choose a new time'),
      picker.element,
      chosen,
      h(
        'div',
        { class: 'actions' },
        confirmButton,
        button('secondary', 'Keep the current time', () => fill(panel)),
      ),
    );
    void picker.begin();
  }
}
