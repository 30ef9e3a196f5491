import * as z from './zod';
import { API_ACCESS } from '../domain/records/common';
import { isValidTimeZone } from '../domain/time';
import { ONLINE_BOOKING_DEFAULTS } from '../domain/online-booking';
import { doc, meta, OutId, schema, Text, Timestamps } from './common';
import { CancellationPolicy } from './deposits';
import { AllowedOrigins } from './origins';

export const ApiAccess = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(API_ACCESS),
    'enabled, or waitlisted (early access: only the token exchange and GET /v1/practice answer).',
    'enabled',
  ),
);

/**
 * The zone names the runtime knows (plus UTC), for the document only. Computed when the document
 * reads it: checking ~400 zones builds a formatter each, 50 ms that every cold start would pay.
 */
const knownZones = () => [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].filter(isValidTimeZone).sort();

/** An IANA time zone; the document lists the canonical names (one component, `TimeZone`). */
export const TimeZone = /* @__PURE__ */ schema(() =>
  meta(z.string().check(z.refine(isValidTimeZone, 'expected an IANA time zone such as America/New_York')), {
    id: 'TimeZone',
    description: 'An IANA time zone name.',
    examples: ['America/New_York'],
    get enum() {
      return knownZones();
    },
  }),
);
export const Currency = /* @__PURE__ */ schema(() =>
  doc(
    z.string().check(z.regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD')),
    'ISO 4217 currency code.',
    'USD',
  ),
);

const bounded = (min: number, max: number, description: string, example: number) =>
  doc(z.number().check(z.int(), z.gte(min), z.lte(max)), `${description} (${min}-${max}).`, example);

/** The online-booking fields and their bounds (API reference, online booking), shared by the answer and the PATCH. */
const onlineBookingFields = /* @__PURE__ */ schema(() => ({
  enabled: doc(
    z.boolean(),
    'Whether clients may book online; while false every /v1/public/* call is 403 ONLINE_BOOKING_DISABLED.',
    true,
  ),
  horizon_days: bounded(
    1,
    365,
    'Last bookable date: today + this many days, practice-local',
    ONLINE_BOOKING_DEFAULTS.horizon_days,
  ),
  min_notice_minutes: bounded(
    0,
    10_080,
    'No online booking starts sooner than this many minutes from now',
    ONLINE_BOOKING_DEFAULTS.min_notice_minutes,
  ),
  cancel_cutoff_minutes: bounded(
    0,
    10_080,
    'Clients cancel or move a booking until this many minutes before it starts',
    ONLINE_BOOKING_DEFAULTS.cancel_cutoff_minutes,
  ),
  max_active_bookings_per_client: bounded(
    1,
    100,
    'Upcoming online bookings one client (by email) may hold',
    ONLINE_BOOKING_DEFAULTS.max_active_bookings_per_client,
  ),
  deposit_note: doc(
    z.nullable(Text(500)),
    'Shown with services that ask a deposit (at most 500 characters); the booking page lists such services but does not book them. Default null.',
    'A deposit secures your appointment; call us to book.',
  ),
}));

export const OnlineBooking = /* @__PURE__ */ schema(() =>
  meta(z.object(onlineBookingFields), {
    description: 'Online booking settings (defaults: disabled, 60, 120, 1440, 3).',
    id: 'OnlineBooking',
  }),
);

export const Practice = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('practice', 'The practice id (`medspa_id` elsewhere).'),
      name: doc(z.string(), 'Name.', 'Glow Aesthetics'),
      time_zone: doc(z.string(), 'IANA time zone: plain dates and working hours are local to it.', 'America/New_York'),
      currency: doc(z.string(), 'ISO 4217 currency of every *_cents amount.', 'USD'),
      reminder_lead_minutes: doc(
        z.number().check(z.int()),
        'How long before an appointment the appointment.reminder event goes out.',
        1440,
      ),
      waitlist_offer_minutes: doc(
        z.number().check(z.int()),
        "How long a waitlist offer's hold lives, in minutes (default 30).",
        30,
      ),
      api_access: ApiAccess,
      online_booking: OnlineBooking,
      allowed_origins: doc(
        z.array(z.string()),
        'Web apps (origins) that may call the staff API with a bearer token; default none.',
        ['https://app.glowaesthetics.com'],
      ),
      cancellation_policy: doc(
        z.nullable(CancellationPolicy),
        'Late-cancel and no-show fees, snapshotted on each appointment at booking; null (default): no policy, no fees.',
      ),
      ...Timestamps,
    }),
    { description: 'The practice (med-spa) the credential belongs to.', id: 'Practice' },
  ),
);
export type Practice = z.infer<typeof Practice>;

export const UpdatePracticeBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        name: doc(
          z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
          'Name (1-200 characters).',
          'Glow Aesthetics',
        ),
        time_zone: TimeZone,
        currency: Currency,
        reminder_lead_minutes: doc(
          z.number().check(z.int(), z.gte(0), z.lte(60 * 24 * 14)),
          'Reminder lead time in minutes (0-20160); applies to appointments booked or moved afterwards.',
          1440,
        ),
        waitlist_offer_minutes: doc(
          z.number().check(z.int(), z.gte(5), z.lte(1440)),
          "How long a waitlist offer's hold lives, in minutes (5-1440, default 30), whatever the limits of `POST /v1/holds`; applies to offers made afterwards.",
          30,
        ),
        api_access: ApiAccess,
        online_booking: doc(
          z.partial(z.strictObject(onlineBookingFields)),
          'Any subset of the online booking settings; the others stay.',
        ),
        allowed_origins: AllowedOrigins(
          0,
          'Web apps that may call the staff API with a bearer token (replaces the list):',
        ),
        cancellation_policy: doc(
          z.nullable(CancellationPolicy),
          'The cancellation policy (replaces it whole); null clears it. Applies to appointments booked afterwards.',
        ),
      }),
    ),
    'Any subset of the settings.',
  ),
);
