import { describe, expect, it } from 'vitest';
import type { Practice, Problem } from '../../lib/booking-page/browser/api';
import {
  addDays,
  clock,
  dayParts,
  localDate,
  longDate,
  minutes,
  money,
  period,
  when,
  zoneName,
} from '../../lib/booking-page/browser/format';
import { describeProblem } from '../../lib/booking-page/browser/messages';
import { buildOpenApiDocument } from '../../lib/openapi/document';

/**
 * What the booking page says (lib/booking-page/browser: messages.ts, format.ts): a sentence for
 * every error code the public operations can answer, and dates, times and money in the practice's
 * zone and currency (Intl, en-US outside a browser).
 */

const problem = (code: Problem['code'], status: number, more: Partial<Problem> = {}): Problem => ({
  status,
  code,
  message: '',
  details: [],
  retryAfter: null,
  ...more,
});
const practice: Practice = {
  name: 'Lumière',
  time_zone: 'America/New_York',
  currency: 'USD',
  online_booking: { horizon_days: 30, min_notice_minutes: 120, cancel_cutoff_minutes: 1440, deposit_note: null },
};
/** Intl writes a narrow no-break space before AM/PM: compared as a space. */
const plain = (text: string) => text.replace(/\s/g, ' ');

/** The error codes the OpenAPI document lists for the /v1/public/* operations. */
function publicErrorCodes(): string[] {
  const doc = buildOpenApiDocument() as Record<string, any>;
  const deref = (node: any) =>
    node?.$ref
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, key: string) => at[key], doc)
      : node;
  const codes = new Set<string>();
  for (const [path, operations] of Object.entries<any>(doc.paths)) {
    if (!path.startsWith('/v1/public/')) continue;
    for (const operation of Object.values<any>(operations)) {
      for (const response of Object.values<any>(operation.responses)) {
        for (const code of deref(response).content?.['application/json']?.schema?.properties?.error?.properties?.code
          ?.enum ?? [])
          codes.add(code);
      }
    }
  }
  return [...codes].sort();
}

describe('a sentence per error code (messages.ts)', () => {
  const GENERIC = describeProblem(problem('INTERNAL_ERROR', 500));
  /** Codes that mean the server failed or the page sent what it never sends: the generic sentence is the honest one. */
  const SAID_GENERICALLY = [
    'HEADERS_TOO_LARGE',
    'IDEMPOTENCY_KEY_REUSED',
    'INTERNAL_ERROR',
    'INVALID_JSON',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    'URI_TOO_LONG',
  ];

  it("has its own sentence for every code the public operations document, but those that are the page's or the server's fault", () => {
    const codes = publicErrorCodes();
    expect(codes).toEqual(expect.arrayContaining(SAID_GENERICALLY));
    const own = codes.filter((code) => !SAID_GENERICALLY.includes(code));
    expect(own.length).toBeGreaterThan(10);
    const sentences = own.map((code) => describeProblem(problem(code as Problem['code'], 400), practice));
    expect(own.filter((_, i) => sentences[i] === GENERIC)).toEqual([]);
    for (const code of SAID_GENERICALLY)
      expect(describeProblem(problem(code as Problem['code'], 400)), code).toBe(GENERIC);
  }, 60_000);

  it('says no answer, and how long to wait when the API said', () => {
    expect(describeProblem(problem('NETWORK', 0))).toMatch(/could not reach the booking service/);
    expect(describeProblem(problem('RATE_LIMITED', 429, { retryAfter: 12 }))).toBe(
      'Too many requests in a short time. Please wait 12 seconds and try again.',
    );
    expect(describeProblem(problem('RATE_LIMITED', 429))).toBe(
      'Too many requests in a short time. Please wait a moment and try again.',
    );
  });

  it("gives the practice's cut-off and booking window in words when it knows them", () => {
    expect(describeProblem(problem('CANCEL_WINDOW_CLOSED', 409), practice)).toBe(
      'It is too close to the appointment to change it online (changes close 1 day before). Please contact the practice.',
    );
    expect(describeProblem(problem('CANCEL_WINDOW_CLOSED', 409))).toBe(
      'It is too close to the appointment to change it online. Please contact the practice.',
    );
    expect(
      describeProblem(
        problem('VALIDATION_ERROR', 400, { details: [{ path: 'scheduled_at', message: 'Too soon' }] }),
        practice,
      ),
    ).toBe(
      'That time can no longer be booked online: bookings open 2 hours ahead and up to 30 days ahead. The times shown are up to date.',
    );
  });

  it('names the fields of a VALIDATION_ERROR as the form labels them', () => {
    const details = [
      { path: 'client.email', message: 'Invalid email' },
      { path: 'notes', message: 'Too long' },
      { path: 'reason', message: 'Too long' },
      { path: 'service_id', message: 'Required' },
    ];
    expect(describeProblem(problem('VALIDATION_ERROR', 400, { details }), practice)).toBe(
      'Please check: Email: Invalid email; Notes: Too long; Reason: Too long; service_id: Required.',
    );
    expect(describeProblem(problem('VALIDATION_ERROR', 400))).toBe('Please check the details you entered.');
  });

  it('says the generic sentence for an answer without a code', () => {
    expect(describeProblem(problem('UNEXPECTED', 418))).toBe(GENERIC);
  });
});

describe('dates, times and money (format.ts)', () => {
  it("dates an instant in the practice's zone, and counts days across a change of clocks", () => {
    expect(localDate('2030-03-10T04:30:00.000Z', 'America/New_York')).toBe('2030-03-09');
    expect(localDate('2030-03-10T05:30:00.000Z', 'America/New_York')).toBe('2030-03-10');
    expect(addDays('2030-03-09', 1)).toBe('2030-03-10');
    expect(addDays('2030-12-31', 1)).toBe('2031-01-01');
    expect(addDays('2030-03-01', -1)).toBe('2030-02-28');
  });

  it('writes days for the day buttons and headings', () => {
    expect(dayParts('2030-12-03')).toEqual(['Tue', '3', 'Dec']);
    expect(longDate('2030-12-03')).toBe('Tuesday, December 3');
  });

  it("writes times in the practice's zone, whatever the device's", () => {
    expect(plain(clock('2030-12-03T14:00:00.000Z', 'America/New_York'))).toBe('9:00 AM');
    expect(plain(clock('2030-12-03T14:00:00.000Z', 'Asia/Tokyo'))).toBe('11:00 PM');
    expect(plain(when('2030-12-03T14:00:00.000Z', 'America/New_York'))).toMatch(
      /^Tuesday, December 3, 2030,? at 9:00 AM$/,
    );
    expect(zoneName('America/New_York')).toBe('Eastern Time');
  });

  it("writes money in the currency's own decimals, and lengths and periods in words", () => {
    expect(money(40000, 'USD')).toBe('$400.00');
    expect(money(5000, 'JPY')).toBe('¥5,000');
    expect(money(1999, 'EUR')).toBe('€19.99');
    expect([30, 60, 90, 120].map(minutes)).toEqual(['30 min', '60 min', '1 hr 30 min', '2 hr']);
    expect([45, 120, 1440, 2880].map(period)).toEqual(['45 minutes', '2 hours', '1 day', '2 days']);
  });
});
