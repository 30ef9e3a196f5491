import * as z from '../schemas/zod';
import { defineRoutes, route } from '../http/route';
import * as pub from '../schemas/public-booking';
import { PublicHeldBookingBody } from '../schemas/holds';

/** What booking a time can refuse, in public terms (API reference, online booking). */
const BOOKING_ERRORS = [
  'SERVICE_NOT_FOUND',
  'PROVIDER_NOT_FOUND',
  'SLOT_UNAVAILABLE',
  'ONLINE_BOOKING_DISABLED',
] as const;
/** What a manage link can refuse: a token that does not open this booking is a missing booking. */
const MANAGE_ERRORS = [
  'APPOINTMENT_NOT_FOUND',
  'INVALID_STATUS_TRANSITION',
  'CANCEL_WINDOW_CLOSED',
  'ONLINE_BOOKING_DISABLED',
] as const;
/** A manage link's token is sealed (at booking) and opened under the cursor secret (lib/crypto/manage-token.ts). */
const MANAGE_TOKEN = { secrets: ['cursor'] } as const;

export const listPublicServices = /* @__PURE__ */ route('listPublicServices', () => ({
  method: 'GET',
  path: '/v1/public/services',
  group: 'public',
  summary: 'Services clients may book online',
  auth: 'publishable',
  response: z.array(pub.PublicService),
  errors: ['ONLINE_BOOKING_DISABLED'],
  reads: ['providers', 'services'],
}));

export const searchPublicAvailability = /* @__PURE__ */ route('searchPublicAvailability', () => ({
  method: 'GET',
  path: '/v1/public/availability',
  group: 'public',
  summary: 'Free times of a service inside the booking window',
  auth: 'publishable',
  query: pub.PublicAvailabilityQuery,
  response: z.array(pub.PublicAvailabilityEntry),
  errors: ['SERVICE_NOT_FOUND', 'PROVIDER_NOT_FOUND', 'ONLINE_BOOKING_DISABLED'],
  reads: ['claims', 'providers', 'services'],
}));

export const createPublicBooking = /* @__PURE__ */ route('createPublicBooking', () => ({
  method: 'POST',
  path: '/v1/public/bookings',
  group: 'public',
  summary: 'Book a time as a client (never double-books)',
  auth: 'publishable',
  // A time, or a held time (`hold_id` with `X-Hold-Token`: lib/use-cases/public-holds.ts).
  body: z.union([pub.PublicBookingBody, PublicHeldBookingBody]),
  response: pub.PublicBooking,
  idempotent: 'required',
  errors: [
    ...BOOKING_ERRORS,
    'BOOKING_LIMIT_REACHED',
    'DEPOSIT_REQUIRED',
    'HOLD_NOT_FOUND',
    'HOLD_EXPIRED',
    'HOLD_NOT_ACTIVE',
  ],
  writes: {
    appointments: ['put'],
    claims: ['put', 'update'],
    clients: ['check', 'put', 'update'],
    clientSearch: ['check', 'put'],
    onlineEmails: ['check', 'put'],
    onlineLedger: ['put'],
    holds: ['update'],
    holdIps: ['update'],
    payments: ['put'],
    // The contact consents a booking grants (section 14).
    contactConsents: ['put'],
    consentedClients: ['put'],
  },
  touches: MANAGE_TOKEN,
  reads: [
    'claims',
    'clientSearch',
    'clients',
    'contactConsents',
    'holds',
    'onlineEmails',
    'onlineLedger',
    'providers',
    'series',
    'services',
  ],
}));

export const getPublicBooking = /* @__PURE__ */ route('getPublicBooking', () => ({
  method: 'GET',
  path: '/v1/public/bookings/{appointment_id}',
  group: 'public',
  summary: 'A booking, by its manage token',
  auth: 'publishable',
  params: pub.PublicBookingParams,
  response: pub.PublicBooking,
  errors: ['APPOINTMENT_NOT_FOUND', 'ONLINE_BOOKING_DISABLED'],
  touches: MANAGE_TOKEN,
  reads: ['appointments', 'providers', 'services'],
}));

export const cancelPublicBooking = /* @__PURE__ */ route('cancelPublicBooking', () => ({
  method: 'POST',
  path: '/v1/public/bookings/{appointment_id}/cancel',
  group: 'public',
  successStatus: 200,
  summary: 'Cancel a booking, by its manage token',
  auth: 'publishable',
  params: pub.PublicBookingParams,
  body: pub.PublicCancelBody,
  response: pub.PublicBooking,
  idempotent: true,
  errors: MANAGE_ERRORS,
  // A staff booking made `source: online` against a plan settles its unit (section 12).
  writes: {
    appointments: ['update'],
    claims: ['update'],
    onlineLedger: ['update'],
    clientPlans: ['update'],
    planLedger: ['put'],
  },
  touches: MANAGE_TOKEN,
  reads: ['appointments', 'clientPlans', 'providers', 'services'],
}));

export const reschedulePublicBooking = /* @__PURE__ */ route('reschedulePublicBooking', () => ({
  method: 'POST',
  path: '/v1/public/bookings/{appointment_id}/reschedule',
  group: 'public',
  successStatus: 200,
  summary: 'Move a booking (same provider), by its manage token',
  auth: 'publishable',
  params: pub.PublicBookingParams,
  body: pub.PublicRescheduleBody,
  response: pub.PublicBooking,
  idempotent: true,
  errors: [...MANAGE_ERRORS, 'SLOT_UNAVAILABLE'],
  writes: { appointments: ['update'], claims: ['put', 'update'], onlineLedger: ['update'] },
  touches: MANAGE_TOKEN,
  // A booking the practice gave a room or equipment keeps them, so a move reads and claims them too.
  reads: ['appointments', 'claims', 'equipment', 'providers', 'rooms', 'series', 'services'],
}));

/**
 * Online booking from a browser (API reference, online booking): services, free times, bookings
 * and their manage links (`X-Booking-Token`), on the staff booking's use cases.
 */
export const publicBookingRoutes = /* @__PURE__ */ defineRoutes({
  listPublicServices,
  searchPublicAvailability,
  createPublicBooking,
  getPublicBooking,
  cancelPublicBooking,
  reschedulePublicBooking,
});
