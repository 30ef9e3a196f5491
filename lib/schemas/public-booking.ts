import * as z from './zod';
import { AppointmentStatus, Slot } from './appointments';
import { DateTime, doc, EXAMPLE_TIME, IdOf, Instant, LocalDate, meta, OutId, schema, Text } from './common';
import { Email, Name, Phone } from './resources';
import { PublicConsents } from './contact-consents';

/**
 * The public booking operations (API reference, online booking): what a stranger's browser sends
 * and sees. Nothing here carries client data, internal notes or more of a provider than a listing.
 */

export const PublicService = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('service', 'The service id.'),
      name: doc(z.string(), 'Name.', 'Botox'),
      category: doc(z.nullable(z.string()), 'Category.', 'injectables'),
      description: doc(z.nullable(z.string()), 'Description.', 'Neuromodulator for dynamic wrinkles, per area'),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 30),
      price_cents: doc(z.number().check(z.int()), "Price in the practice's currency, minor units.", 45000),
      deposit_required_cents: doc(
        z.number().check(z.int()),
        "The deposit a booking asks (0: none). Such a service is booked only through a public hold confirmed with the deposit (a plain public booking is 422 DEPOSIT_REQUIRED); show it with the practice's online_booking.deposit_note.",
        0,
      ),
    }),
    {
      description: 'A service clients may book online: active, with at least one active certified provider.',
      id: 'PublicService',
    },
  ),
);

export const PublicProvider = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('provider', 'The provider id.'),
      display_name: doc(z.string(), 'First name and last initial.', 'Ava R.'),
    }),
    { description: 'A provider as clients see them.', id: 'PublicProvider' },
  ),
);

export const PublicAvailabilityQuery = /* @__PURE__ */ schema(() =>
  z.object({
    service_id: IdOf('service', 'The service to book (else 404 SERVICE_NOT_FOUND).'),
    from: doc(LocalDate, 'First practice-local date, inclusive.', '2026-12-01'),
    to: doc(LocalDate, 'Last practice-local date, inclusive; at most 31 days from `from` counting both.', '2026-12-07'),
    provider_id: z.optional(
      IdOf(
        'provider',
        'Only this provider (else 404 PROVIDER_NOT_FOUND). Default: every provider who may perform the service.',
      ),
    ),
  }),
);

export const PublicAvailabilityEntry = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      date: meta(doc(z.string(), 'Practice-local date of the slots.', '2026-12-01'), { format: 'date' }),
      provider: PublicProvider,
      slots: doc(z.array(Slot), 'Bookable slots, in time order, inside the booking window.'),
    }),
    { description: 'The bookable slots of one provider on one practice-local date.', id: 'PublicAvailabilityEntry' },
  ),
);

/** Who books online (a booking, or a held booking). */
const PublicBookingClient = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      first_name: doc(Name, 'First name (1-200 characters).', 'Olivia'),
      last_name: doc(Name, 'Last name (1-200 characters).', 'Hart'),
      email: doc(Email, 'Email: the practice finds its client by it (case-insensitive).', 'olivia.hart@example.com'),
      phone: doc(z.optional(Phone), 'Phone: digits, spaces and + ( ) . - x.', '+1 212 555 0142'),
    }),
    'Who books. An existing client with this email is neither changed nor shown.',
  ),
);
/** Who books a time (or a held time), and the contact consents they grant (section 14). */
export const PublicBookingClientWithConsents = /* @__PURE__ */ schema(() =>
  doc(
    z.extend(PublicBookingClient, { consents: z.optional(PublicConsents) }),
    'Who books, and what they agreed to be contacted for. An existing client with this email is neither changed nor shown, except that it gains the contact consents granted here.',
  ),
);
export const PublicBookingNotes = /* @__PURE__ */ schema(() =>
  doc(z.optional(Text(5000)), 'A note for the practice (at most 5000 characters).', 'First visit.'),
);

export const PublicBookingBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      service_id: IdOf('service', 'The service to book (else 404 SERVICE_NOT_FOUND).'),
      scheduled_at: doc(
        DateTime,
        'Start, with an offset: one of the slot starts the public availability offers (400 at `scheduled_at` outside the booking window; 409 SLOT_UNAVAILABLE when taken or at any other minute, second or millisecond).',
        '2026-12-01T10:00:00-05:00',
      ),
      provider_id: z.optional(
        IdOf('provider', 'The provider (else 404 PROVIDER_NOT_FOUND). Default: any provider free at that time.'),
      ),
      client: PublicBookingClientWithConsents,
      notes: PublicBookingNotes,
    }),
    'An online booking.',
  ),
);
export type PublicBookingInput = z.output<typeof PublicBookingBody>;

export const PublicBooking = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      appointment_id: OutId('appointment', 'The appointment id.'),
      status: AppointmentStatus,
      scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 30),
      service: doc(
        z.object({ id: OutId('service', 'The service id.'), name: doc(z.string(), 'Name.', 'Botox') }),
        'The service.',
      ),
      provider: PublicProvider,
      manage_token: doc(
        z.string(),
        'Opaque; sent as `X-Booking-Token` to see, cancel or reschedule this booking until it ends. A reschedule answers a new one, and the tokens handed out before stop working (404).',
        'mt_example',
      ),
    }),
    { description: 'An online booking as its client sees it.', id: 'PublicBooking' },
  ),
);
export type PublicBookingView = z.output<typeof PublicBooking>;

export const PublicBookingParams = /* @__PURE__ */ schema(() =>
  z.object({ appointment_id: IdOf('appointment', 'The booking (else 404 APPOINTMENT_NOT_FOUND).') }),
);

export const PublicCancelBody = /* @__PURE__ */ schema(() =>
  doc(
    z.optional(
      z.strictObject({
        reason: doc(z.optional(z.string().check(z.maxLength(1000))), 'Why (at most 1000 characters).', 'Travelling'),
      }),
    ),
    'Optional; an empty body cancels without a reason.',
  ),
);

export const PublicRescheduleBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      scheduled_at: doc(
        DateTime,
        'The new start, with an offset: same provider, same rules as a booking (one of the offered slot starts).',
        '2026-12-02T10:00:00-05:00',
      ),
    }),
    'A new time for the booking.',
  ),
);
