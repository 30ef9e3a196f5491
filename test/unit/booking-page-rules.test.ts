import { describe, expect, it } from 'vitest';
import type { AvailabilityEntry, Booking, Problem } from '../../lib/booking-page/browser/api';
import { bookLink, manageLink, tokenFromFragment } from '../../lib/booking-page/browser/context';
import {
  bookingFailure,
  bookingRequest,
  checkDetails,
  fieldOf,
  type Values,
} from '../../lib/booking-page/browser/form';
import {
  dayToShow,
  timesOn,
  WINDOW_DAYS,
  windowDates,
  windowEnd,
  type Choice,
} from '../../lib/booking-page/browser/slots';
import { changesClosed, isChangeable, statusLabel } from '../../lib/booking-page/browser/summary';

/**
 * The booking page's rules apart from the DOM (lib/booking-page/browser: slots.ts, form.ts,
 * summary.ts, context.ts): which days and times it offers, what it checks and sends, what a
 * refusal changes, and its manage links.
 */

const problem = (code: Problem['code'], status: number, details: Problem['details'] = []): Problem => ({
  status,
  code,
  message: '',
  details,
  retryAfter: null,
});
const entry = (date: string, provider: [string, string], starts: string[]): AvailabilityEntry => ({
  date,
  provider: { id: provider[0], display_name: provider[1] },
  slots: starts.map((start) => ({
    slot_start: start,
    slot_end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
  })),
});
const AVA: [string, string] = ['prv_ava', 'Ava R.'];
const MAYA: [string, string] = ['prv_maya', 'Maya C.'];

describe('days and times (slots.ts)', () => {
  it('shows 14 days at a time, none past the booking window; asks the API for the same days', () => {
    const dates = windowDates('2030-02-20', '2030-12-31');
    expect(dates).toHaveLength(WINDOW_DAYS);
    expect([dates[0], dates.at(-1)]).toEqual(['2030-02-20', '2030-03-05']);
    expect(windowEnd('2030-02-20', '2030-12-31')).toBe('2030-03-05');
    expect(windowDates('2030-02-20', '2030-02-22')).toEqual(['2030-02-20', '2030-02-21', '2030-02-22']);
    expect(windowEnd('2030-02-20', '2030-02-22')).toBe('2030-02-22');
  });

  const entries = [
    entry('2030-01-07', MAYA, ['2030-01-07T16:00:00.000Z', '2030-01-07T14:00:00.000Z']),
    entry('2030-01-07', AVA, ['2030-01-07T14:00:00.000Z', '2030-01-07T14:15:00.000Z', '2030-01-07T13:00:00.000Z']),
    entry('2030-01-08', AVA, ['2030-01-08T14:00:00.000Z']),
  ];

  it("merges providers' times into one per start, in order, leaving the provider to the API", () => {
    const times = timesOn(entries, '2030-01-07', '', 0);
    expect(times.map((t) => t.start)).toEqual([
      '2030-01-07T13:00:00.000Z',
      '2030-01-07T14:00:00.000Z',
      '2030-01-07T14:15:00.000Z',
      '2030-01-07T16:00:00.000Z',
    ]);
    expect(times[1]).toEqual<Choice>({
      start: '2030-01-07T14:00:00.000Z',
      end: '2030-01-07T14:30:00.000Z',
      providerId: null,
      providerName: null,
    });
  });

  it("offers the slots' starts as given (the API books only those), none sooner than the notice", () => {
    const offered = new Set(entries.flatMap((e) => e.slots.map((s) => s.slot_start)));
    for (const day of ['2030-01-07', '2030-01-08'])
      for (const time of timesOn(entries, day, '', 0)) expect(offered).toContain(time.start);
    expect(timesOn(entries, '2030-01-07', '', Date.parse('2030-01-07T14:15:00.000Z')).map((t) => t.start)).toEqual([
      '2030-01-07T14:15:00.000Z',
      '2030-01-07T16:00:00.000Z',
    ]);
  });

  it("with a provider (chosen, or a reschedule's), that provider's times only, named", () => {
    expect(timesOn(entries, '2030-01-07', MAYA[0], 0)).toEqual([
      {
        start: '2030-01-07T14:00:00.000Z',
        end: '2030-01-07T14:30:00.000Z',
        providerId: MAYA[0],
        providerName: MAYA[1],
      },
      {
        start: '2030-01-07T16:00:00.000Z',
        end: '2030-01-07T16:30:00.000Z',
        providerId: MAYA[0],
        providerName: MAYA[1],
      },
    ]);
    expect(timesOn(entries, '2030-01-08', MAYA[0], 0)).toEqual([]);
  });

  it('keeps the day while it has times, else the next that has, else the first that has', () => {
    const dates = ['2030-01-07', '2030-01-08', '2030-01-09', '2030-01-10'];
    const free =
      (...days: string[]) =>
      (day: string) =>
        days.includes(day);
    expect(dayToShow(null, dates, free('2030-01-08', '2030-01-10'))).toBe('2030-01-08');
    expect(dayToShow('2030-01-09', dates, free('2030-01-08', '2030-01-09'))).toBe('2030-01-09');
    expect(dayToShow('2030-01-09', dates, free('2030-01-08', '2030-01-10'))).toBe('2030-01-10');
    expect(dayToShow('2030-01-09', dates, free('2030-01-07', '2030-01-08'))).toBe('2030-01-07');
    expect(dayToShow('2030-01-09', dates, free())).toBeNull();
  });
});

describe('the booking form (form.ts)', () => {
  const values = (overrides: Partial<Values> = {}): Values => ({
    first_name: 'Jane',
    last_name: 'Doe',
    email: 'jane@example.com',
    phone: '',
    notes: '',
    ...overrides,
  });
  const complaints = (v: Values) => checkDetails(v).filter(([, message]) => message);

  it('asks for first name, last name and email; phone is optional but must look like one', () => {
    expect(complaints(values())).toEqual([]);
    expect(complaints(values({ phone: '+1 (555) 010-0100 x12' }))).toEqual([]);
    expect(complaints(values({ first_name: '', last_name: '', email: '' }))).toEqual([
      ['first_name', 'Enter your first name.'],
      ['last_name', 'Enter your last name.'],
      ['email', 'Enter your email address.'],
    ]);
    // (Moved from the browser test of the refusals: the page's own check, before anything is sent.)
    expect(complaints(values({ email: 'not-an-email' }))).toEqual([
      ['email', 'Enter an email address like name@example.com.'],
    ]);
    expect(complaints(values({ phone: 'call me' }))).toEqual([
      ['phone', 'Enter a phone number such as +1 555 010 0100, or leave it empty.'],
    ]);
  });

  it('books the held time by its hold (the hold names service, time and provider), leaving out empty optional fields', () => {
    expect(bookingRequest('hld_1', values())).toEqual({
      hold_id: 'hld_1',
      client: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com' },
    });
    expect(bookingRequest('hld_1', values({ phone: '555 0101', notes: 'First visit' }))).toEqual({
      hold_id: 'hld_1',
      client: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone: '555 0101' },
      notes: 'First visit',
    });
  });

  it("finds the form's field a VALIDATION_ERROR names", () => {
    expect(['client.first_name', 'client.email', 'client.phone', 'notes'].map(fieldOf)).toEqual([
      'first_name',
      'email',
      'phone',
      'notes',
    ]);
    expect(['scheduled_at', 'client', 'client.toString', 'email', 'service_id'].map(fieldOf)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('after a refusal: fresh times when the time or its provider is gone; the fields the API names; the service withdrawn; else a notice', () => {
    expect(bookingFailure(problem('SLOT_UNAVAILABLE', 409))).toEqual({ kind: 'times' });
    expect(bookingFailure(problem('PROVIDER_NOT_FOUND', 404))).toEqual({ kind: 'times' });
    expect(bookingFailure(problem('VALIDATION_ERROR', 400, [{ path: 'scheduled_at', message: 'Too soon' }]))).toEqual({
      kind: 'times',
    });
    expect(
      bookingFailure(
        problem('VALIDATION_ERROR', 400, [
          { path: 'client.email', message: 'Invalid email' },
          { path: 'service_id', message: 'x' },
        ]),
      ),
    ).toEqual({
      kind: 'fields',
      fields: [['email', 'Invalid email']],
    });
    expect(bookingFailure(problem('VALIDATION_ERROR', 400, [{ path: 'service_id', message: 'x' }]))).toEqual({
      kind: 'notice',
      again: false,
    });
    expect(bookingFailure(problem('SERVICE_NOT_FOUND', 404))).toEqual({ kind: 'service' });
    // Pressing Book again is offered where it is safe (same Idempotency-Key) and may work.
    expect(bookingFailure(problem('NETWORK', 0))).toEqual({ kind: 'notice', again: true });
    expect(bookingFailure(problem('INTERNAL_ERROR', 503))).toEqual({ kind: 'notice', again: true });
    expect(bookingFailure(problem('IDEMPOTENCY_KEY_IN_USE', 409))).toEqual({ kind: 'notice', again: true });
    expect(bookingFailure(problem('BOOKING_LIMIT_REACHED', 409))).toEqual({ kind: 'notice', again: false });
    // The hold is gone: the client picks a time again; too many holds is said, not a reason to reload.
    for (const code of ['HOLD_EXPIRED', 'HOLD_NOT_FOUND', 'HOLD_NOT_ACTIVE'] as const)
      expect(bookingFailure(problem(code, 409)), code).toEqual({ kind: 'hold' });
    expect(bookingFailure(problem('HOLD_LIMIT_REACHED', 409))).toEqual({ kind: 'notice', again: false });
  });
});

describe("the manage view's rules (summary.ts, context.ts)", () => {
  const booked = (status: Booking['status'], scheduled_at = '2030-01-07T14:00:00.000Z'): Booking => ({
    appointment_id: 'apt_1',
    status,
    scheduled_at,
    duration_minutes: 30,
    service: { id: 'svc_1', name: 'Botox' },
    provider: { id: 'prv_1', display_name: 'Ava R.' },
    manage_token: 'mt_1',
  });

  it("lets booked and confirmed appointments change, until the practice's cut-off before the start", () => {
    expect(
      (['scheduled', 'confirmed', 'checked_in', 'in_progress', 'completed', 'cancelled', 'no_show'] as const).filter(
        (s) => isChangeable(booked(s)),
      ),
    ).toEqual(['scheduled', 'confirmed']);
    const start = Date.parse('2030-01-07T14:00:00.000Z');
    expect(changesClosed(booked('scheduled'), 1440, start - 1440 * 60_000 - 1)).toBe(false);
    expect(changesClosed(booked('scheduled'), 1440, start - 1440 * 60_000)).toBe(true);
  });

  it('names every status in words, and one it does not know as the API spells it', () => {
    expect(statusLabel('scheduled')).toBe('Booked');
    expect(statusLabel('no_show')).toBe('Missed');
    expect(statusLabel('on_hold')).toBe('on hold');
  });

  it("puts the manage token in the link's fragment (never sent to a server), and reads it back", () => {
    const page = 'https://api.example.com/prod/book?key=pk_old&booking=x#token=old';
    const link = manageLink(page, 'pk_live1', 'apt_1', 'mt_a/b+c');
    expect(link).toBe('https://api.example.com/prod/book?key=pk_live1&booking=apt_1#token=mt_a%2Fb%2Bc');
    expect(tokenFromFragment(link)).toBe('mt_a/b+c');
    expect(tokenFromFragment('https://api.example.com/book?key=pk_1&booking=apt_1')).toBe('');
    expect(bookLink(page, 'pk_live1')).toBe('https://api.example.com/prod/book?key=pk_live1');
  });
});
