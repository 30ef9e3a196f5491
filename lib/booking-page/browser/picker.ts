/// <reference lib="dom" />
import { problemOf, retryable, type Api, type AvailabilityEntry, type Practice } from './api';
import { announce, button, fill, h, showMessage, uid } from './dom';
import { addDays, clock, dayParts, localDate, longDate, period, zoneName } from './format';
import { describeProblem } from './messages';
import {
  dayToShow,
  timesOn as freeTimes,
  WINDOW_DAYS,
  windowDates as datesFrom,
  windowEnd,
  type Choice,
} from './slots';

export type { Choice } from './slots';

export interface PickerOptions {
  api: Api;
  practice: Practice;
  serviceId: string;
  /** Rescheduling: this provider's times only, and no provider choice. */
  providerId?: string;
  /** The level of the "Days" and "Available times" headings (default h2). */
  heading?: 'h2' | 'h3';
  /** A time was picked (by the client: move on), or the pick was dropped (null: the times changed). */
  onChoose(choice: Choice | null): void;
}

export interface Picker {
  element: HTMLElement;
  /** Loads the booking window from today (or `from`) and selects the first day with a free time. */
  begin(from?: string): Promise<void>;
  /**
   * After the time was taken or fell out of the window: drops the pick, reloads the shown days,
   * keeps the day when it still has times (else the next that has), and says why, focused.
   */
  refresh(message: string): Promise<void>;
}

/**
 * The day and time choice: days of the booking window, 14 at a time, each a button in the group
 * labelled "Days" (a day without a free time is disabled and says "No times"); the chosen day's
 * times as buttons in the group labelled "Available times". Providers' times are merged unless
 * the client picks a provider.
 */
export function createPicker(options: PickerOptions): Picker {
  const { api, practice, serviceId, providerId: fixed } = options;
  const zone = practice.time_zone;
  const today = localDate(Date.now(), zone);
  const last = addDays(today, Math.max(0, practice.online_booking.horizon_days));
  const cache = new Map<string, AvailabilityEntry[]>();
  const providers = new Map<string, string>();
  let start = today;
  let entries: AvailabilityEntry[] = [];
  let provider = '';
  let date: string | null = null;
  let chosen: Choice | null = null;
  let sequence = 0;

  const ids = { days: uid('days'), times: uid('times'), caption: uid('caption'), provider: uid('provider') };
  const providerSelect = h('select', { id: ids.provider, onchange: () => filter(providerSelect.value) });
  const providerField = h(
    'div',
    { class: 'field', hidden: true },
    h('label', { for: ids.provider }, 'Provider'),
    providerSelect,
  );
  const days = h('ul', { class: 'days' });
  const range = h('span', { class: 'range', 'aria-live': 'polite' });
  const earlier = button('link', 'Earlier days', () => move(-WINDOW_DAYS));
  const later = button('link', 'Later days', () => move(WINDOW_DAYS));
  const notice = h('p', { class: 'notice', role: 'alert', tabindex: '-1', hidden: true });
  const retry = button('secondary', 'Try again', () => {
    cache.clear();
    say(null);
    void begin(start);
  });
  retry.hidden = true;
  const caption = h('p', { id: ids.caption, class: 'caption' });
  const times = h('ul', { class: 'times' });
  const groups = [
    h(
      'div',
      { role: 'group', 'aria-labelledby': ids.days, class: 'step' },
      h(options.heading ?? 'h2', { id: ids.days }, 'Days'),
      days,
    ),
    h(
      'div',
      { role: 'group', 'aria-labelledby': ids.times, 'aria-describedby': ids.caption, class: 'step' },
      h(options.heading ?? 'h2', { id: ids.times }, 'Available times'),
      caption,
      times,
    ),
  ];
  const element = h(
    'div',
    { class: 'picker' },
    providerField,
    groups[0],
    h('div', { class: 'daynav' }, earlier, range, later),
    notice,
    retry,
    groups[1],
  );

  function say(message: string | null, focus = false): void {
    showMessage(notice, message, focus);
    if (!message) retry.hidden = true;
  }

  function drop(): void {
    if (!chosen) return;
    chosen = null;
    options.onChoose(null);
  }

  const windowDates = () => datesFrom(start, last);
  const timesOn = (day: string) =>
    freeTimes(entries, day, provider || fixed || '', Date.now() + practice.online_booking.min_notice_minutes * 60_000);
  /** `day` while it has times, else the next that has (else the first): see slots.ts. */
  const dayFrom = (day: string | null) => dayToShow(day, windowDates(), (date) => timesOn(date).length > 0);

  /** Fetches one window of days (or takes it from the cache); false when that failed or another load overtook it. */
  async function load(from: string): Promise<boolean> {
    const mine = ++sequence;
    start = from;
    let answer = cache.get(from);
    if (!answer) {
      for (const group of groups) group.setAttribute('aria-busy', 'true');
      caption.textContent = 'Loading times…';
      try {
        const got = await api.get('v1/public/availability', {
          query: { service_id: serviceId, from, to: windowEnd(from, last), provider_id: fixed },
        });
        answer = Array.isArray(got) ? got : [];
        cache.set(from, answer);
      } catch (error) {
        if (mine === sequence) {
          const problem = problemOf(error);
          say(describeProblem(problem, practice), true);
          retry.hidden = !retryable(problem);
          caption.textContent = '';
        }
        return false;
      } finally {
        if (mine === sequence) for (const group of groups) group.setAttribute('aria-busy', 'false');
      }
    }
    if (mine !== sequence) return false;
    entries = answer;
    for (const entry of entries) providers.set(entry.provider.id, entry.provider.display_name);
    if (!fixed && providers.size > 1 && providerSelect.options.length !== providers.size + 1) {
      const sorted = [...providers].sort((a, b) => a[1].localeCompare(b[1]));
      fill(
        providerSelect,
        h('option', { value: '' }, 'Any provider'),
        sorted.map(([id, name]) => h('option', { value: id }, name)),
      );
      providerSelect.value = provider;
      providerField.hidden = false;
    }
    return true;
  }

  /** Shows the window's days with `day` selected, and its times. */
  function show(day: string | null): void {
    date = day;
    const dates = windowDates();
    fill(
      days,
      dates.map((d) => {
        const free = timesOn(d).length > 0;
        const [weekday, number, month] = dayParts(d);
        return h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: 'day',
              'data-date': d,
              'aria-pressed': String(d === day),
              disabled: !free,
              onclick: () => pick(d),
            },
            h('span', null, weekday),
            ' ',
            h('span', { class: 'num' }, number),
            ' ',
            h('span', null, month),
            free ? null : [' ', h('span', { class: 'none' }, 'No times')],
          ),
        );
      }),
    );
    range.textContent = dates.length ? `${longDate(dates[0])} – ${longDate(dates[dates.length - 1])}` : '';
    earlier.disabled = start <= today;
    later.disabled = addDays(start, WINDOW_DAYS) > last;
    renderTimes();
  }

  function renderTimes(): void {
    const list = date ? timesOn(date) : [];
    caption.textContent = date ? `${longDate(date)} · ${zoneName(zone)}` : 'Choose a day with free times.';
    fill(
      times,
      list.map((choice) =>
        h(
          'li',
          null,
          h(
            'button',
            {
              type: 'button',
              class: 'time',
              'data-start': choice.start,
              'aria-pressed': String(choice.start === chosen?.start),
              onclick: () => choose(choice),
            },
            clock(choice.start, zone),
          ),
        ),
      ),
    );
  }

  function pick(day: string): void {
    date = day;
    say(null);
    for (const b of days.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.date === day));
    renderTimes();
    announce(`${longDate(day)}: ${times.children.length} times`);
  }

  function choose(choice: Choice): void {
    chosen = choice;
    say(null);
    for (const b of times.querySelectorAll('button'))
      b.setAttribute('aria-pressed', String(b.dataset.start === choice.start));
    options.onChoose(choice);
  }

  async function move(by: number): Promise<void> {
    const from = addDays(start, by);
    if (from < today || from > last) return;
    say(null);
    if (await load(from)) show(dayFrom(null));
  }

  function filter(value: string): void {
    provider = value;
    drop();
    show(dayFrom(date));
  }

  async function begin(from = today): Promise<void> {
    for (let window = from; window <= last; window = addDays(window, WINDOW_DAYS)) {
      if (!(await load(window))) return;
      const first = dayFrom(null);
      if (first) return show(first);
    }
    if (!(await load(from))) return;
    show(null);
    say(
      `No free times ${fixed ? 'with this provider' : 'for this service'} in the next ${period(practice.online_booking.horizon_days * 1440)}. Please contact the practice.`,
    );
  }

  async function refresh(message: string): Promise<void> {
    cache.clear();
    drop();
    if (!(await load(start))) return;
    const day = dayFrom(date);
    if (day) show(day);
    else await begin(start);
    say(message, true);
  }

  return { element, begin, refresh };
}
