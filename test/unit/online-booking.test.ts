import { describe, expect, it } from 'vitest';
import { corsAnswerHeaders, corsPreflightHeaders, originAllowed, originProblem } from '../../lib/domain/cors';
import {
  bookingWindow,
  displayName,
  ONLINE_BOOKING_DEFAULTS,
  onlineBookingOf,
  outsideWindow,
  withinCancelWindow,
} from '../../lib/domain/online-booking';

describe('allowed origins', () => {
  it.each([
    'https://spa.example',
    'https://book.spa.example:8443',
    'http://localhost:3000',
    'http://127.0.0.1:5173',
    'http://localhost',
    'https://10.0.0.7:8443',
    'https://[::1]:8443',
    'https://xn--bcher-kva.example',
  ])('%s may be listed', (origin) => {
    expect(originProblem(origin)).toBeNull();
  });
  it.each([
    ['http://spa.example', /https/],
    ['https://spa.example/', /exact origin/],
    ['https://spa.example/book', /exact origin/],
    ['https://SPA.example', /exact origin/],
    ['https://user@spa.example', /exact origin/],
    ['spa.example', /not an origin/],
    ['*', /not an origin/],
    ['file:///tmp/x', /exact origin/],
    ['http://localhost.evil.example', /https/],
    ['', /not an origin/],
    // Hosts the URL parser takes but no browser is ever on: wildcards, separators, bad labels.
    ['https://*.example', /no wildcard/],
    ['https://a;b.example', /DNS name/],
    ['https://a_b.example', /DNS name/],
    ['https://-a.example', /DNS name/],
    ['https://a..b.example', /DNS name/],
    ['https://spa.example.', /DNS name/],
    ['https://spa.example:0', /port/],
    ['https://bücher.example', /write it as https:\/\/xn--bcher-kva\.example/],
  ])('%s may not', (origin, problem) => {
    expect(originProblem(origin)).toMatch(problem);
  });
  it('matches exactly', () => {
    expect(originAllowed('https://spa.example', ['https://spa.example'])).toBe(true);
    expect(originAllowed('https://spa.example:443', ['https://spa.example'])).toBe(false);
    expect(originAllowed('https://evil.spa.example', ['https://spa.example'])).toBe(false);
  });
});

describe('CORS headers', () => {
  it('answers an allowed origin with exactly the documented headers, never credentials', () => {
    expect(corsAnswerHeaders('https://spa.example')).toEqual({
      'Access-Control-Allow-Origin': 'https://spa.example',
      Vary: 'Origin',
      'Access-Control-Expose-Headers':
        'X-Request-Id, ETag, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed',
    });
  });
  it('preflights with the path methods, the request headers and 600 s', () => {
    expect(corsPreflightHeaders('https://spa.example', ['GET', 'POST'])).toEqual({
      'Access-Control-Allow-Origin': 'https://spa.example',
      Vary: 'Origin',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers':
        'authorization, content-type, idempotency-key, if-match, x-publishable-key, x-booking-token, x-hold-token',
      'Access-Control-Max-Age': '600',
    });
  });
  it('leaves the origin headers out of a preflight without Origin', () => {
    expect(corsPreflightHeaders(undefined, ['GET'])).toEqual({
      'Access-Control-Allow-Methods': 'GET, OPTIONS',
      'Access-Control-Allow-Headers':
        'authorization, content-type, idempotency-key, if-match, x-publishable-key, x-booking-token, x-hold-token',
      'Access-Control-Max-Age': '600',
    });
  });
});

describe('online booking rules', () => {
  const zone = 'America/New_York';
  const now = new Date('2031-03-10T14:00:00Z'); // 10:00 local
  const settings = onlineBookingOf({ enabled: true });

  it('defaults to off, 60 days, 120 minutes, 1440 minutes, 3 bookings, no deposit note', () => {
    expect(onlineBookingOf(undefined)).toEqual({
      enabled: false,
      horizon_days: 60,
      min_notice_minutes: 120,
      cancel_cutoff_minutes: 1440,
      max_active_bookings_per_client: 3,
      deposit_note: null,
    });
    expect(onlineBookingOf({ horizon_days: 7 })).toEqual({ ...ONLINE_BOOKING_DEFAULTS, horizon_days: 7 });
  });
  it('opens min_notice after now and closes horizon_days after today, practice-local', () => {
    expect(bookingWindow(now, settings, zone)).toEqual({
      earliestStart: '2031-03-10T16:00:00.000Z',
      lastDate: '2031-05-09',
    });
    expect(outsideWindow('2031-03-10T16:00:00Z', now, settings, zone)).toBeNull();
    expect(outsideWindow('2031-03-10T15:59:00Z', now, settings, zone)).toMatch(/120 minutes/);
    expect(outsideWindow('2031-05-10T03:30:00Z', now, settings, zone)).toBeNull(); // 23:30 on 05-09 local
    expect(outsideWindow('2031-05-10T04:30:00Z', now, settings, zone)).toMatch(/60 days/);
  });
  it('lets a client manage until the cutoff before the start', () => {
    expect(withinCancelWindow('2031-03-11T14:00:00Z', now, settings)).toBe(true);
    expect(withinCancelWindow('2031-03-11T13:59:00Z', now, settings)).toBe(false);
  });
  it('shows a provider by first name and last initial', () => {
    expect(displayName({ first_name: 'Ava', last_name: 'reyes' })).toBe('Ava R.');
    expect(displayName({ first_name: 'Zoë', last_name: 'Ångström' })).toBe('Zoë Å.');
  });
});
