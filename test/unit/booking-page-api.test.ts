import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiError, createApi, problemOf, Submission, type Api, type Problem } from '../../lib/booking-page/browser/api';
import type { components } from '../../lib/client/schema';

/**
 * The booking page's calls (lib/booking-page/browser/api.ts) without a browser: `fetch` is stood
 * in, so what the page sends and how it reads each kind of answer are checked one by one; the
 * browser tests (test/browser/booking-page.test.ts) keep the flows against the real server.
 */

interface Sent {
  url: string;
  init: RequestInit;
}

/** Stands in `fetch`: records each request and answers with `answer`'s response (or throws its error). */
function answering(answer: () => Response | Error): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: URL, init: RequestInit) => {
    sent.push({ url: String(url), init });
    const outcome = answer();
    if (outcome instanceof Error) throw outcome;
    return outcome;
  });
  return sent;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function refusal(promise: Promise<unknown>): Promise<Problem> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return problemOf(error);
}

const BASE = 'https://api.example.com/prod/';
const booking: components['schemas']['PublicBooking'] = {
  appointment_id: 'apt_1',
  status: 'scheduled',
  scheduled_at: '2030-01-07T14:00:00.000Z',
  duration_minutes: 30,
  service: { id: 'svc_1', name: 'Botox' },
  provider: { id: 'prv_1', display_name: 'Ava R.' },
  manage_token: 'mt_2',
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createApi: what the page sends', () => {
  it("calls the path under the page's base (a stage path stays), the id encoded, unset query parameters left out, with the key and no credentials", async () => {
    const sent = answering(() => json(200, { success: true, data: [] }));
    const api = createApi(BASE, 'pk_live1');
    await api.get('v1/public/availability', {
      query: { service_id: 'svc_1', from: '2030-01-07', to: '2030-01-20', provider_id: undefined },
    });
    await api.get('v1/public/bookings/{appointment_id}', { params: { appointment_id: 'a/b?c' } }, 'mt_1');
    expect(sent.map((s) => s.url)).toEqual([
      'https://api.example.com/prod/v1/public/availability?service_id=svc_1&from=2030-01-07&to=2030-01-20',
      'https://api.example.com/prod/v1/public/bookings/a%2Fb%3Fc',
    ]);
    expect(sent[0].init).toMatchObject({
      method: 'GET',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      body: undefined,
    });
    expect(sent[0].init.headers).toEqual({ accept: 'application/json', 'x-publishable-key': 'pk_live1' });
    // The manage token goes in a header, never in the address.
    expect(sent[1].init.headers).toMatchObject({ 'x-booking-token': 'mt_1' });
  });

  it('posts JSON with the Idempotency-Key it is given', async () => {
    const sent = answering(() => json(200, { success: true, data: booking }));
    const api = createApi(BASE, 'pk_live1');
    await api.post(
      'v1/public/bookings/{appointment_id}/reschedule',
      { params: { appointment_id: 'apt_1' }, body: { scheduled_at: '2030-01-08T15:00:00.000Z' } },
      'key-1',
      'mt_1',
    );
    expect(sent[0].url).toBe('https://api.example.com/prod/v1/public/bookings/apt_1/reschedule');
    expect(sent[0].init).toMatchObject({ method: 'POST', body: '{"scheduled_at":"2030-01-08T15:00:00.000Z"}' });
    expect(sent[0].init.headers).toEqual({
      accept: 'application/json',
      'x-publishable-key': 'pk_live1',
      'content-type': 'application/json',
      'x-booking-token': 'mt_1',
      'idempotency-key': 'key-1',
    });
  });

  it("sends a hold's token as X-Hold-Token (releasing it, booking the held time) and a DELETE with keepalive (it may be sent while the page is left)", async () => {
    const sent = answering(() => json(200, { success: true, data: booking }));
    const api = createApi(BASE, 'pk_live1');
    await api.post(
      'v1/public/bookings',
      { body: { hold_id: 'hld_1', client: { first_name: 'A', last_name: 'B', email: 'a@example.com' } } },
      'key-1',
      'ht_1',
    );
    await api.delete('v1/public/holds/{hold_id}', { params: { hold_id: 'hld_1' } }, 'ht_1');
    expect(sent.map((s) => [s.init.method, s.url, s.init.keepalive])).toEqual([
      ['POST', 'https://api.example.com/prod/v1/public/bookings', false],
      ['DELETE', 'https://api.example.com/prod/v1/public/holds/hld_1', true],
    ]);
    for (const { init } of sent) {
      expect(init.headers).toMatchObject({ 'x-hold-token': 'ht_1', 'x-publishable-key': 'pk_live1' });
      expect(init.headers).not.toHaveProperty('x-booking-token');
    }
  });

  it("is typed by the contract (lib/client/schema.ts): each path's input and its answer's data", () => {
    const api = {} as Api;
    type Schemas = components['schemas'];
    expectTypeOf<ReturnType<typeof api.get<'v1/public/practice'>>>().resolves.toEqualTypeOf<
      Schemas['PublicPractice']
    >();
    expectTypeOf<ReturnType<typeof api.get<'v1/public/services'>>>().resolves.toEqualTypeOf<
      Schemas['PublicService'][]
    >();
    expectTypeOf<ReturnType<typeof api.get<'v1/public/availability'>>>().resolves.toEqualTypeOf<
      Schemas['PublicAvailabilityEntry'][]
    >();
    expectTypeOf<ReturnType<typeof api.post<'v1/public/bookings'>>>().resolves.toEqualTypeOf<
      Schemas['PublicBooking']
    >();
    expectTypeOf<ReturnType<typeof api.post<'v1/public/bookings/{appointment_id}/cancel'>>>().resolves.toEqualTypeOf<
      Schemas['PublicBooking']
    >();
    expectTypeOf<ReturnType<typeof api.post<'v1/public/holds'>>>().resolves.toEqualTypeOf<Schemas['PublicHold']>();
    expectTypeOf<ReturnType<typeof api.delete<'v1/public/holds/{hold_id}'>>>().resolves.toEqualTypeOf<{
      id: string;
      deleted: true;
    }>();
    expectTypeOf<Parameters<typeof api.get<'v1/public/availability'>>[0]>().toEqualTypeOf<'v1/public/availability'>();
    // Calls the contract does not have, or inputs it does not take, do not compile.
    // @ts-expect-error no such public operation
    expectTypeOf<typeof api.get<'v1/public/clients'>>().toBeFunction();
    expectTypeOf(api.get<'v1/public/availability'>).toBeCallableWith('v1/public/availability', {
      query: { service_id: 's', from: '2030-01-07', to: '2030-01-20' },
    });
    // @ts-expect-error the availability needs its query
    expectTypeOf(api.get<'v1/public/availability'>).toBeCallableWith('v1/public/availability', {});
    expectTypeOf(api.post<'v1/public/bookings/{appointment_id}/reschedule'>).toBeCallableWith(
      'v1/public/bookings/{appointment_id}/reschedule',
      // @ts-expect-error a reschedule needs its body
      { params: { appointment_id: 'a' } },
      'k',
    );
  });
});

describe('createApi: how the page reads answers', () => {
  it('takes the data out of the { success, data } envelope, and a bare body as is', async () => {
    answering(() => json(200, { success: true, data: booking }));
    expect(
      await createApi(BASE, 'pk_1').get('v1/public/bookings/{appointment_id}', { params: { appointment_id: 'apt_1' } }),
    ).toEqual(booking);
    answering(() => json(200, booking));
    expect(
      await createApi(BASE, 'pk_1').get('v1/public/bookings/{appointment_id}', { params: { appointment_id: 'apt_1' } }),
    ).toEqual(booking);
  });

  it('reads the error envelope: code, message, the field problems (malformed ones dropped), Retry-After', async () => {
    const details = [{ path: 'client.email', message: 'Invalid email' }, { message: 'no path' }, null];
    answering(() =>
      json(
        429,
        { success: false, error: { code: 'RATE_LIMITED', message: 'Slow down', details, request_id: 'r1' } },
        { 'retry-after': '7' },
      ),
    );
    expect(await refusal(createApi(BASE, 'pk_1').get('v1/public/services', {}))).toEqual({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Slow down',
      details: [{ path: 'client.email', message: 'Invalid email' }],
      retryAfter: 7,
    });
  });

  it("judges an answer that is not the API's by its status: 5xx INTERNAL_ERROR, 429 RATE_LIMITED, else UNEXPECTED", async () => {
    for (const [status, code] of [
      [502, 'INTERNAL_ERROR'],
      [429, 'RATE_LIMITED'],
      [403, 'UNEXPECTED'],
    ] as const) {
      answering(
        () =>
          new Response('<html>Bad gateway</html>', {
            status,
            statusText: 'Gateway says no',
            headers: { 'retry-after': 'soon' },
          }),
      );
      expect(await refusal(createApi(BASE, 'pk_1').get('v1/public/practice', {}))).toEqual({
        status,
        code,
        message: 'Gateway says no',
        details: [],
        retryAfter: null,
      });
    }
  });

  it('says NETWORK when no answer came', async () => {
    answering(() => new TypeError('Failed to fetch'));
    expect(await refusal(createApi(BASE, 'pk_1').get('v1/public/practice', {}))).toMatchObject({
      status: 0,
      code: 'NETWORK',
    });
  });

  it('takes any other thrown value as UNEXPECTED', () => {
    expect(problemOf(new Error('boom'))).toEqual({
      status: 0,
      code: 'UNEXPECTED',
      message: 'Error: boom',
      details: [],
      retryAfter: null,
    });
  });
});

describe('Submission: one Idempotency-Key per submission', () => {
  const problem = (code: Problem['code'], status: number): Problem => ({
    status,
    code,
    message: '',
    details: [],
    retryAfter: null,
  });
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('sends the same body again under the same key after no answer, a 5xx, a 429 or IDEMPOTENCY_KEY_IN_USE', () => {
    for (const failure of [
      problem('NETWORK', 0),
      problem('INTERNAL_ERROR', 503),
      problem('RATE_LIMITED', 429),
      problem('IDEMPOTENCY_KEY_IN_USE', 409),
    ]) {
      const submission = new Submission();
      const key = submission.keyFor({ a: 1 });
      expect(key).toMatch(UUID);
      submission.settle(failure);
      expect(submission.keyFor({ a: 1 }), failure.code).toBe(key);
    }
  });

  it('takes a fresh key for another body, and after any other answer', () => {
    const submission = new Submission();
    const first = submission.keyFor({ a: 1 });
    const edited = submission.keyFor({ a: 2 });
    expect(edited).not.toBe(first);
    submission.settle(problem('SLOT_UNAVAILABLE', 409));
    const afterRefusal = submission.keyFor({ a: 2 });
    expect(afterRefusal).not.toBe(edited);
    submission.settle();
    expect(submission.keyFor({ a: 2 })).not.toBe(afterRefusal);
  });
});
