import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createApi,
  problemOf,
  type Hold,
  type Practice,
  type Service,
} from '../../lib/booking-page/browser/api';
import { depositOf } from '../../lib/booking-page/browser/deposit';
import { bookingFailure } from '../../lib/booking-page/browser/form';
import { deadlineOf, Holder, timeLeft } from '../../lib/booking-page/browser/hold';
import { describeProblem } from '../../lib/booking-page/browser/messages';
import type { Choice } from '../../lib/booking-page/browser/slots';

/**
 * The booking page's hold on the chosen time (lib/booking-page/browser/hold.ts) against a
 * stood-in `fetch`: held on a pick, the old one released before the next is held, released on
 * going back and on leaving (keepalive), forgotten at expiry, and what a refusal says; and the
 * deposit listing's accessor (deposit.ts). The flow against the real server is in
 * test/browser/booking-page.test.ts.
 */

const NOW = Date.parse('2030-01-07T12:00:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
  keepalive: boolean | undefined;
}

const choice = (start: string, providerId: string | null = null): Choice => ({
  start,
  end: start,
  providerId,
  providerName: providerId ? 'Ava R.' : null,
});
const A = choice('2030-01-07T14:00:00.000Z');
const B = choice('2030-01-07T15:00:00.000Z', 'prv_ava');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refusal = (status: number, code: string) =>
  json(status, { success: false, error: { code, message: code, request_id: 'r1' } });

let holds = 0;
/** A hold as the API answers it: held for 600 s from now (the fake clock's). */
function held(body: { scheduled_at: string }): Response {
  holds += 1;
  const hold: Hold = {
    hold_id: `hld_${holds}`,
    hold_token: `ht_${holds}`,
    expires_at: new Date(Date.now() + 600_000).toISOString(),
    scheduled_at: body.scheduled_at,
    duration_minutes: 30,
    service: { id: 'svc_1', name: 'Botox' },
    provider: { id: 'prv_ava', display_name: 'Ava R.' },
    deposit_required_cents: 0,
  };
  return json(201, { success: true, data: hold });
}

/**
 * Stands in `fetch`: records each request; `answer` answers it (default: a hold for a POST, the
 * deletion for a DELETE); a promise answer lets a test hold a request open.
 */
function standIn(
  answer: (sent: Sent) => Response | Error | Promise<Response | undefined> | undefined = () => undefined,
): Sent[] {
  const sent: Sent[] = [];
  holds = 0;
  vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
    const request: Sent = {
      method: String(init.method),
      path: new URL(url).pathname,
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      keepalive: init.keepalive,
    };
    sent.push(request);
    const outcome = (await answer(request)) ?? (request.method === 'POST' ? held(request.body) : undefined);
    if (outcome instanceof Error) throw outcome;
    return outcome ?? json(200, { success: true, data: { id: request.path.split('/').pop(), deleted: true } });
  });
  return sent;
}

const api = () => createApi('https://api.example.com/', 'pk_live1');
const calls = (sent: Sent[]) => sent.map((s) => `${s.method} ${s.path}${s.body ? ` ${s.body.scheduled_at}` : ''}`);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('Holder: one hold on the chosen time', () => {
  it('holds a pick (service, offered start, the provider only when chosen) with an Idempotency-Key, and counts down from its expiry', async () => {
    vi.useFakeTimers({ now: NOW });
    const sent = standIn();
    const holder = new Holder(api(), () => undefined);
    const first = await holder.hold('svc_1', A);
    expect(first).toMatchObject({ hold: { hold_id: 'hld_1', hold_token: 'ht_1' }, deadline: NOW + 600_000 });
    expect(holder.current).toBe(first);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/v1/public/holds',
      body: { service_id: 'svc_1', scheduled_at: A.start },
    });
    expect(sent[0].headers['idempotency-key']).toMatch(UUID);
    expect(sent[0].headers['x-publishable-key']).toBe('pk_live1');
    await holder.hold('svc_1', B);
    expect(sent.at(-1)!.body).toEqual({ service_id: 'svc_1', scheduled_at: B.start, provider_id: 'prv_ava' });
    expect(sent.at(-1)!.headers['idempotency-key']).not.toBe(sent[0].headers['idempotency-key']);
  });

  it('releases the old hold (DELETE with its token, keepalive) before holding another time, and on going back', async () => {
    const sent = standIn();
    const holder = new Holder(api(), () => undefined);
    await holder.hold('svc_1', A);
    await holder.hold('svc_1', B);
    expect(calls(sent)).toEqual([
      `POST /v1/public/holds ${A.start}`,
      'DELETE /v1/public/holds/hld_1',
      `POST /v1/public/holds ${B.start}`,
    ]);
    expect(sent[1].headers['x-hold-token']).toBe('ht_1');
    expect(sent[1].headers).not.toHaveProperty('x-booking-token');
    expect(sent[1].keepalive).toBe(true);
    expect(holder.current?.hold.hold_id).toBe('hld_2');

    await holder.release();
    expect(calls(sent).at(-1)).toBe('DELETE /v1/public/holds/hld_2');
    expect(holder.current).toBeNull();
    // Nothing held: nothing sent.
    await holder.release();
    expect(sent).toHaveLength(4);
  });

  it('a second pick before the first is held wins: the first is released as soon as it comes, and never becomes current', async () => {
    let letFirstAnswer: () => void = () => undefined;
    const firstAnswered = new Promise<void>((resolve) => (letFirstAnswer = resolve));
    const sent = standIn((request) =>
      request.method === 'POST' && request.body.scheduled_at === A.start
        ? firstAnswered.then(() => held(request.body))
        : undefined,
    );
    const holder = new Holder(api(), () => undefined);
    const first = holder.hold('svc_1', A);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const second = holder.hold('svc_1', B);
    letFirstAnswer();
    expect(await first).toBeNull();
    expect((await second)?.hold.scheduled_at).toBe(B.start);
    expect(calls(sent)).toEqual([
      `POST /v1/public/holds ${A.start}`,
      'DELETE /v1/public/holds/hld_1',
      `POST /v1/public/holds ${B.start}`,
    ]);
    expect(holder.current?.hold.hold_id).toBe('hld_2');
  });

  it('of picks made before the first was sent, only the last is asked for', async () => {
    const sent = standIn();
    const holder = new Holder(api(), () => undefined);
    const [first, second] = await Promise.all([holder.hold('svc_1', A), holder.hold('svc_1', B)]);
    expect(first).toBeNull();
    expect(second?.hold.scheduled_at).toBe(B.start);
    expect(calls(sent)).toEqual([`POST /v1/public/holds ${B.start}`]);
  });

  it('going back while the hold is on its way releases it when it comes', async () => {
    let answerHold: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answerHold = resolve));
    const sent = standIn((request) =>
      request.method === 'POST' ? answered.then(() => held(request.body)) : undefined,
    );
    const holder = new Holder(api(), () => undefined);
    const pending = holder.hold('svc_1', A);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    const back = holder.release();
    answerHold();
    expect(await pending).toBeNull();
    await back;
    expect(calls(sent)).toEqual([`POST /v1/public/holds ${A.start}`, 'DELETE /v1/public/holds/hld_1']);
    expect(holder.current).toBeNull();
  });

  it('leaving the page (pagehide) sends the release at once with keepalive; what comes next (back from the cache) waits for it', async () => {
    let answerRelease: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (answerRelease = resolve));
    const sent = standIn((request) => (request.method === 'DELETE' ? released.then(() => undefined) : undefined));
    const holder = new Holder(api(), () => undefined);
    await holder.hold('svc_1', A);
    holder.leave();
    expect(holder.current).toBeNull();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ method: 'DELETE', path: '/v1/public/holds/hld_1', keepalive: true });
    expect(sent[1].headers).toMatchObject({ 'x-hold-token': 'ht_1', 'x-publishable-key': 'pk_live1' });
    let after = false;
    const next = holder.release().then(() => (after = true));
    // One macrotask: every microtask has run, so a release that did not wait would have resolved.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(after).toBe(false);
    answerRelease();
    await next;
    expect(sent).toHaveLength(2);
  });

  it('at expiry says so once and forgets the hold (no release sent: the API already freed the time)', async () => {
    vi.useFakeTimers({ now: NOW });
    const sent = standIn();
    const expired = vi.fn();
    const holder = new Holder(api(), expired);
    await holder.hold('svc_1', A);
    await vi.advanceTimersByTimeAsync(599_999);
    expect(expired).not.toHaveBeenCalled();
    expect(holder.current).not.toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toHaveBeenCalledTimes(1);
    expect(holder.current).toBeNull();
    expect(sent.map((s) => s.method)).toEqual(['POST']);
    // A click on a time holds it again.
    await holder.hold('svc_1', A);
    expect(holder.current?.hold.hold_id).toBe('hld_2');
  });

  it('a released or booked hold no longer expires', async () => {
    vi.useFakeTimers({ now: NOW });
    standIn();
    const expired = vi.fn();
    const holder = new Holder(api(), expired);
    await holder.hold('svc_1', A);
    holder.forget();
    await holder.hold('svc_1', B);
    await holder.release();
    await vi.advanceTimersByTimeAsync(700_000);
    expect(expired).not.toHaveBeenCalled();
  });

  it('a refused hold throws its problem and holds nothing: SLOT_UNAVAILABLE reloads the times, HOLD_LIMIT_REACHED is said', async () => {
    standIn((request) =>
      request.method === 'POST'
        ? refusal(409, request.body.scheduled_at === A.start ? 'SLOT_UNAVAILABLE' : 'HOLD_LIMIT_REACHED')
        : undefined,
    );
    const holder = new Holder(api(), () => undefined);
    const taken = problemOf(await holder.hold('svc_1', A).catch((error: unknown) => error));
    expect(taken.code).toBe('SLOT_UNAVAILABLE');
    expect(bookingFailure(taken)).toEqual({ kind: 'times' });
    expect(describeProblem(taken)).toMatch(/that time was just taken/);
    const limit = await holder.hold('svc_1', B).catch((error: unknown) => error);
    expect(limit).toBeInstanceOf(ApiError);
    expect(bookingFailure(problemOf(limit))).toEqual({ kind: 'notice', again: false });
    expect(describeProblem(problemOf(limit))).toBe(
      'You are already holding as many times as you may (3): finish or close your other booking pages, or wait 10 minutes, then choose a time again.',
    );
    expect(holder.current).toBeNull();
  });

  it('holds the same time again under the same Idempotency-Key after no answer (never two holds for one click)', async () => {
    let fail = true;
    const sent = standIn(() => (fail ? new TypeError('Failed to fetch') : undefined));
    const holder = new Holder(api(), () => undefined);
    expect(problemOf(await holder.hold('svc_1', A).catch((error: unknown) => error)).code).toBe('NETWORK');
    fail = false;
    await holder.hold('svc_1', A);
    expect(sent[1].headers['idempotency-key']).toBe(sent[0].headers['idempotency-key']);
  });

  it('a release with no answer still lets the page move on', async () => {
    let fail = false;
    const sent = standIn((request) =>
      fail && request.method === 'DELETE' ? new TypeError('Failed to fetch') : undefined,
    );
    const holder = new Holder(api(), () => undefined);
    await holder.hold('svc_1', A);
    fail = true;
    await holder.hold('svc_1', B);
    expect(calls(sent)).toHaveLength(3);
    expect(holder.current?.hold.hold_id).toBe('hld_2');
  });
});

describe('the countdown (hold.ts)', () => {
  const hold = { expires_at: new Date(NOW + 600_000).toISOString() } as Hold;

  it("counts to the hold's expiry, never longer than the 600 s lifetime from when it was asked for (a device clock running slow)", () => {
    expect(deadlineOf(hold, NOW)).toBe(NOW + 600_000);
    expect(deadlineOf(hold, NOW - 120_000)).toBe(NOW + 480_000);
  });

  it('shows m:ss and says whole minutes, rounded up', () => {
    const deadline = NOW + 600_000;
    expect(timeLeft(deadline, NOW)).toEqual({ minutes: 10, clock: '10:00' });
    expect(timeLeft(deadline, NOW + 1)).toEqual({ minutes: 10, clock: '10:00' });
    expect(timeLeft(deadline, NOW + 1000)).toEqual({ minutes: 10, clock: '9:59' });
    expect(timeLeft(deadline, NOW + 60_000)).toEqual({ minutes: 9, clock: '9:00' });
    expect(timeLeft(deadline, NOW + 599_500)).toEqual({ minutes: 1, clock: '0:01' });
    expect(timeLeft(deadline, NOW + 700_000)).toEqual({ minutes: 0, clock: '0:00' });
  });

  it('says an expired or lost hold in words', () => {
    const said = (code: 'HOLD_EXPIRED' | 'HOLD_NOT_FOUND') =>
      describeProblem({ status: 409, code, message: '', details: [], retryAfter: null });
    expect(said('HOLD_EXPIRED')).toMatch(/^The 10 minutes we held your time for are over\. Choose a time again/);
    expect(said('HOLD_NOT_FOUND')).toMatch(/^Your time is no longer held for you\. Choose a time again/);
  });
});

describe('depositOf: a service that asks a deposit is not booked on the page (deposit.ts)', () => {
  const service = { id: 'svc_1', name: 'Filler', duration_minutes: 60, price_cents: 60000 } as Service;
  const practice = {
    online_booking: { horizon_days: 30, min_notice_minutes: 120, cancel_cutoff_minutes: 1440 },
  } as Practice;

  it('reads none while the API does not answer the fields, or answers no deposit', () => {
    expect(depositOf(service, practice)).toBeNull();
    expect(depositOf({ ...service, deposit_required_cents: 0 } as Service, practice)).toBeNull();
  });

  it("reads the deposit and the practice's note (a blank note is none)", () => {
    const filler = { ...service, deposit_required_cents: 15000 } as Service;
    expect(depositOf(filler, practice)).toEqual({ cents: 15000, note: null });
    const noted = (note: string) =>
      ({ ...practice, online_booking: { ...practice.online_booking, deposit_note: note } }) as Practice;
    expect(depositOf(filler, noted(' Call us on 555 0100. '))).toEqual({ cents: 15000, note: 'Call us on 555 0100.' });
    expect(depositOf(filler, noted('  '))).toEqual({ cents: 15000, note: null });
  });
});
