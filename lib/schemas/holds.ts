import * as z from './zod';
import { PAYMENT_METHODS } from '../domain/records/common';
import { HOLD_SECONDS } from '../domain/holds';
import { AppointmentSource, ClientNotes, Duration, ids, InternalNotes, PriceCents } from './appointments';
import { DateTime, doc, EXAMPLE_TIME, IdOf, Instant, meta, OutId, schema, Text } from './common';
import { PublicBookingClientWithConsents, PublicBookingNotes, PublicProvider } from './public-booking';

/**
 * Holds (API reference, holds): a time held for a while before it is booked, by staff (`/v1/holds`)
 * or by a client's browser (`/v1/public/holds`, with a hold token).
 */

const HoldStart = /* @__PURE__ */ schema(() =>
  doc(
    DateTime,
    'Start, with an offset; at most 5 minutes in the past. Validated as a create (working hours, time off, overlaps on the held time).',
    '2026-12-01T10:00:00-05:00',
  ),
);
const DepositRequired = /* @__PURE__ */ schema(() =>
  doc(
    z.number().check(z.int(), z.gte(0)),
    "The deposit the service asks, in the practice's currency's minor units (0: none).",
    0,
  ),
);
const BufferMinutes = (which: string) =>
  doc(z.number().check(z.int()), `Minutes held ${which} the client's time (copied from the service).`, 0);

export const CreateHoldBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      service_id: ids.service,
      scheduled_at: HoldStart,
      provider_id: z.optional(
        IdOf(
          'provider',
          'The provider (else 404 PROVIDER_NOT_FOUND; 422 PROVIDER_NOT_CERTIFIED). Default: a certified, active provider free at that time.',
        ),
      ),
      room_id: z.nullish(ids.room),
      equipment_id: z.nullish(ids.equipment),
      duration_minutes: doc(z.optional(Duration), "Length in minutes, 5-480; overrides the service's duration.", 60),
      expires_in_seconds: doc(
        z._default(z.number().check(z.int(), z.gte(HOLD_SECONDS.min), z.lte(HOLD_SECONDS.max)), HOLD_SECONDS.default),
        `How long the time is held, ${HOLD_SECONDS.min}..${HOLD_SECONDS.max} seconds (default ${HOLD_SECONDS.default}).`,
        600,
      ),
    }),
    'A time to hold. Validated in the order of a create, without the client.',
  ),
);
export type CreateHoldInput = z.output<typeof CreateHoldBody>;

export const Hold = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('hold', 'The hold id.'),
      status: doc(
        z.enum(['active', 'confirmed', 'released', 'expired']),
        'active until `expires_at`, then expired (it holds nothing from that instant); confirmed (see `appointment_id`) or released.',
        'active',
      ),
      service_id: OutId('service', 'The service.'),
      provider_id: OutId('provider', 'The provider held.'),
      room_id: z.nullable(OutId('room', 'The room held, if any.')),
      equipment_id: z.nullable(OutId('equipment', 'The equipment held, if any.')),
      scheduled_at: Instant('Start of the client time (UTC).', EXAMPLE_TIME.start),
      end_at: Instant('End of the client time (UTC).', EXAMPLE_TIME.end),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 60),
      buffer_before_minutes: BufferMinutes('before'),
      buffer_after_minutes: BufferMinutes('after'),
      expires_at: Instant('When the hold stops holding the time (UTC).', '2026-11-23T14:15:09.412Z'),
      deposit_required_cents: DepositRequired,
      appointment_id: z.optional(OutId('appointment', 'The appointment it was confirmed as (status confirmed only).')),
      created_at: Instant('When it was made (UTC).'),
    }),
    {
      description:
        'A hold: the time of an appointment not yet booked, claimed exactly as an appointment claims it until `expires_at`.',
      id: 'Hold',
    },
  ),
);
export type HoldView = z.output<typeof Hold>;

/** The deposit a confirm records (the deposits part of section 11 records it as a `kind: deposit` payment). */
const StaffDeposit = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      amount_cents: doc(z.number().check(z.int(), z.gte(1)), 'What was charged, minor units.', 5000),
      method: doc(z.enum(PAYMENT_METHODS), 'How it was paid.', 'card'),
      reference: doc(
        z.optional(Text(200)),
        "The processor's reference (e.g. a PaymentIntent id); never card data.",
        'pi_3Nabc',
      ),
    }),
    'A deposit charged for the appointment.',
  ),
);

export const ConfirmHoldBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      client_id: ids.client,
      notes: z.nullish(ClientNotes),
      internal_notes: z.nullish(InternalNotes),
      source: doc(z._default(AppointmentSource, 'manual'), 'Where the booking came from (default manual).', 'online'),
      price_cents: z.optional(PriceCents),
      deposit: z.optional(StaffDeposit),
      client_plan_id: z.optional(
        IdOf(
          'clientPlan',
          "Book against this client plan: one unit reserved in the confirm's own write, price 0, no deposit asked (else 404 CLIENT_PLAN_NOT_FOUND, 422 PLAN_NOT_APPLICABLE, 409 PLAN_NOT_ACTIVE or ENTITLEMENT_EXHAUSTED).",
        ),
      ),
    }),
    'Books the held time as an appointment, in one atomic write: while the hold is active it cannot fail for availability.',
  ),
);
export type ConfirmHoldInput = z.output<typeof ConfirmHoldBody>;

export const HoldParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('hold', 'The hold (else 404 HOLD_NOT_FOUND).') }),
);

// ---- Public holds -------------------------------------------------------------------------------

export const PublicHoldBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      service_id: IdOf('service', 'The service to hold (else 404 SERVICE_NOT_FOUND).'),
      scheduled_at: doc(
        DateTime,
        'Start, with an offset: one of the slot starts the public availability offers (400 outside the booking window; 409 SLOT_UNAVAILABLE otherwise).',
        '2026-12-01T10:00:00-05:00',
      ),
      provider_id: z.optional(
        IdOf('provider', 'The provider (else 404 PROVIDER_NOT_FOUND). Default: any provider free at that time.'),
      ),
    }),
    'A time to hold while the client fills in the form (600 seconds).',
  ),
);
export type PublicHoldInput = z.output<typeof PublicHoldBody>;

export const PublicHold = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      hold_id: OutId('hold', 'The hold id.'),
      hold_token: doc(
        z.string(),
        'Opaque; sent as `X-Hold-Token` to book (`POST /v1/public/bookings` with `hold_id`) or release the hold, until it expires.',
        'ht_example',
      ),
      expires_at: Instant('When the hold stops holding the time (UTC).', '2026-11-23T14:15:09.412Z'),
      scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 30),
      service: doc(
        z.object({ id: OutId('service', 'The service id.'), name: doc(z.string(), 'Name.', 'Botox') }),
        'The service.',
      ),
      provider: PublicProvider,
      deposit_required_cents: DepositRequired,
    }),
    { description: 'A time held for a client while they book it.', id: 'PublicHold' },
  ),
);
export type PublicHoldView = z.output<typeof PublicHold>;

export const PublicHoldParams = /* @__PURE__ */ schema(() =>
  z.object({ hold_id: IdOf('hold', 'The hold (else 404 HOLD_NOT_FOUND).') }),
);

/** A booking of a held time: the hold names the service, time and provider. */
export const PublicHeldBookingBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      hold_id: IdOf('hold', 'The hold to book, with its token in `X-Hold-Token` (else 404 HOLD_NOT_FOUND).'),
      client: PublicBookingClientWithConsents,
      notes: PublicBookingNotes,
      deposit: doc(
        z.optional(
          z.strictObject({
            amount_cents: doc(z.number().check(z.int(), z.gte(1)), 'What was charged, minor units.', 5000),
            reference: doc(Text(200), "The processor's reference; never card data.", 'pi_3Nabc'),
          }),
        ),
        "The deposit the integrator's processor charged.",
      ),
    }),
    'An online booking of a held time (409 HOLD_EXPIRED once the hold has expired).',
  ),
);
export type PublicHeldBookingInput = z.output<typeof PublicHeldBookingBody>;
