import * as z from './zod';
import { APPOINTMENT_SOURCES } from '../domain/records/common';
import { APPOINTMENT_STATUSES } from '../domain/status';
import {
  DateTime,
  doc,
  EXAMPLE_ID,
  EXAMPLE_TIME,
  IdOf,
  Instant,
  LocalDate,
  meta,
  OutId,
  PageQuery,
  schema,
  Timestamps,
} from './common';
import { TimeZone } from './practice';
import { CancellationPolicy, Fee } from './deposits';

export const AppointmentStatus = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(APPOINTMENT_STATUSES),
    'scheduled -> confirmed -> checked_in -> in_progress -> completed; scheduled, confirmed or in_progress -> cancelled; checked_in -> no_show. completed, cancelled and no_show are final.',
    'scheduled',
  ),
);
export const AppointmentSource = /* @__PURE__ */ schema(() =>
  doc(z.enum(APPOINTMENT_SOURCES), 'Where the booking came from, for attribution.', 'online'),
);
export const Duration = /* @__PURE__ */ schema(() =>
  doc(z.number().check(z.int(), z.gte(5), z.lte(480)), 'Length in minutes, 5-480.', 60),
);
const Notes = /* @__PURE__ */ schema(() => z.string().check(z.maxLength(5000)));
export const ClientNotes = /* @__PURE__ */ schema(() =>
  doc(Notes, 'Notes the client may see (at most 5000 characters).', 'First visit; prefers the afternoon.'),
);
export const InternalNotes = /* @__PURE__ */ schema(() =>
  doc(Notes, 'Staff-only notes (at most 5000 characters).', 'Check allergy list before treatment.'),
);
const ScheduledAt = /* @__PURE__ */ schema(() =>
  doc(
    DateTime,
    'Start, with an offset; at most 5 minutes in the past. The provider must be free for [scheduled_at, scheduled_at + duration).',
    '2026-12-01T10:00:00-05:00',
  ),
);
export const PriceCents = /* @__PURE__ */ schema(() =>
  doc(
    z.number().check(z.int(), z.gte(0)),
    "Price in the practice's currency, minor units. Default: the service's price at booking time.",
    45000,
  ),
);
export const ids = /* @__PURE__ */ schema(() => ({
  client: IdOf('client', 'The client receiving the service (else 404 CLIENT_NOT_FOUND).'),
  service: IdOf('service', 'The service performed (else 404 SERVICE_NOT_FOUND; inactive: 400).'),
  provider: IdOf(
    'provider',
    'The provider performing it: must be certified for the service (else 422 PROVIDER_NOT_CERTIFIED).',
  ),
  room: IdOf('room', 'A treatment room to book with it (else 404 ROOM_NOT_FOUND), or null.'),
  equipment: IdOf('equipment', 'Equipment to book with it (else 404 EQUIPMENT_NOT_FOUND), or null.'),
}));

export const Appointment = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('appointment', 'The appointment id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      client_id: OutId('client', 'The client receiving the service.'),
      service_id: OutId('service', 'The service performed.'),
      provider_id: OutId('provider', 'The provider performing it.'),
      room_id: z.nullable(OutId('room', 'The booked room, if any.')),
      equipment_id: z.nullable(OutId('equipment', 'The booked equipment, if any.')),
      scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
      end_at: Instant('End (UTC): scheduled_at + duration_minutes.', EXAMPLE_TIME.end),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 60),
      buffer_before_minutes: doc(
        z.number().check(z.int()),
        "Minutes held before scheduled_at: the service's buffer when booked (a later change to the service moves nothing).",
        0,
      ),
      buffer_after_minutes: doc(
        z.number().check(z.int()),
        "Minutes held after end_at: the service's buffer when booked. The held time [scheduled_at - before, end_at + after) overlaps no other booking's on the same provider, room or equipment.",
        15,
      ),
      status: AppointmentStatus,
      notes: doc(z.nullable(z.string()), 'Notes the client may see.', 'First visit; prefers the afternoon.'),
      internal_notes: doc(z.nullable(z.string()), 'Staff-only notes.', null),
      source: AppointmentSource,
      price_cents: doc(z.number().check(z.int()), "Price in the practice's currency, minor units.", 45000),
      cancelled_at: meta(z.nullable(Instant('When it was cancelled; null unless cancelled.')), { examples: [null] }),
      cancellation_reason: doc(
        z.nullable(z.string()),
        'Why it was cancelled (`client_deleted` when its client was deleted); null unless cancelled.',
        null,
      ),
      deposit_required_cents: doc(
        z.number().check(z.int()),
        'The deposit the service asked at booking (0: none). Staff creates snapshot it but never require it.',
        10000,
      ),
      deposit_paid_cents: doc(z.number().check(z.int()), 'The sum of its `kind: deposit` payments.', 10000),
      cancellation_policy: doc(
        z.nullable(CancellationPolicy),
        "The practice's cancellation policy as it was at booking (a later change does not apply); null: no fees.",
      ),
      fees: doc(z.array(Fee), 'Late-cancel and no-show fees assessed on it (empty: none).', []),
      hold_id: meta(
        z.optional(
          z.nullable(
            OutId(
              'hold',
              'The hold it was booked from (`POST /v1/holds/{id}/confirm`); null otherwise (absent on appointments booked before holds existed).',
            ),
          ),
        ),
        { examples: [null] },
      ),
      series_id: meta(
        z.optional(
          z.nullable(
            OutId(
              'series',
              'The series it was booked in (`POST /v1/appointment-series`); null otherwise (absent on appointments booked before series existed).',
            ),
          ),
        ),
        { examples: [null] },
      ),
      client_plan_id: meta(
        z.optional(
          z.nullable(OutId('clientPlan', 'The client plan it was booked against (its unit reserved); null otherwise.')),
        ),
        { examples: [null] },
      ),
      waitlist_entry_id: meta(
        z.optional(
          z.nullable(
            OutId(
              'waitlistEntry',
              'The waitlist entry whose offer it was booked from (`POST /v1/waitlist/{id}/accept`); null otherwise (absent on appointments booked before the waitlist existed).',
            ),
          ),
        ),
        { examples: [null] },
      ),
      ...Timestamps,
    }),
    {
      description:
        'An appointment: one client, one service, one provider (and optionally a room and equipment) for a time.',
      id: 'Appointment',
    },
  ),
);
export type Appointment = z.infer<typeof Appointment>;

export const CreateAppointmentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      client_id: ids.client,
      service_id: ids.service,
      provider_id: ids.provider,
      scheduled_at: ScheduledAt,
      duration_minutes: doc(z.optional(Duration), "Length in minutes, 5-480; overrides the service's duration.", 60),
      room_id: z.nullish(ids.room),
      equipment_id: z.nullish(ids.equipment),
      notes: z.nullish(ClientNotes),
      internal_notes: z.nullish(InternalNotes),
      source: doc(z._default(AppointmentSource, 'manual'), 'Where the booking came from (default manual).', 'online'),
      price_cents: z.optional(PriceCents),
      client_plan_id: z.optional(
        IdOf(
          'clientPlan',
          "Book against this client plan: one unit of the service is reserved in the booking's own write, and the price is 0 (else 404 CLIENT_PLAN_NOT_FOUND, 422 PLAN_NOT_APPLICABLE, 409 PLAN_NOT_ACTIVE or ENTITLEMENT_EXHAUSTED).",
        ),
      ),
    }),
    'A booking. Validated in this order: client, service, provider, certification, provider availability, room, equipment.',
  ),
);
export type CreateAppointmentInput = z.infer<typeof CreateAppointmentBody>;

export const UpdateAppointmentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        scheduled_at: doc(
          ScheduledAt,
          'New start (a move): re-validated like a create; only scheduled and confirmed appointments move.',
          '2026-12-01T14:00:00-05:00',
        ),
        duration_minutes: Duration,
        provider_id: ids.provider,
        room_id: z.nullable(ids.room),
        equipment_id: z.nullable(ids.equipment),
        notes: z.nullable(ClientNotes),
        internal_notes: z.nullable(InternalNotes),
        price_cents: doc(z.number().check(z.int(), z.gte(0)), "Price in the practice's currency, minor units.", 40000),
      }),
    ),
    'Any subset of the fields. A change of time or resources is re-validated like a create and frees the old time in the same write.',
  ),
);
export type UpdateAppointmentInput = z.infer<typeof UpdateAppointmentBody>;

export const StatusBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      status: doc(
        AppointmentStatus,
        'The status to move to; a move not allowed from the current status is 409 INVALID_STATUS_TRANSITION.',
        'confirmed',
      ),
    }),
    'The next status.',
  ),
);
export const CancelBody = /* @__PURE__ */ schema(() =>
  doc(
    z.optional(
      z.strictObject({
        reason: doc(
          z.optional(z.string().check(z.maxLength(1000))),
          'Why (at most 1000 characters), kept as cancellation_reason (and as the waive_reason of a waived fee).',
          'Client is travelling',
        ),
        waive_fee: doc(
          z.optional(z.boolean()),
          'true: a late-cancel fee this cancel assesses is recorded as waived (admin, manager; others 403 FORBIDDEN).',
          true,
        ),
      }),
    ),
    "Optional; an empty body cancels without a reason. A cancel less than the policy's late_cancel_minutes before the start assesses a late-cancel fee in the same write.",
  ),
);

/** `a,b` or the parameter repeated (API Gateway joins repeats with commas), blanks dropped. */
export const commaList = (value: string | string[]) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

const StatusList = /* @__PURE__ */ schema(() =>
  doc(
    z.pipe(
      // Repeated, each value is one id; `a,b` is a list, so only the array's items say uuid.
      z.pipe(z.union([z.string(), z.array(meta(z.string(), { format: 'uuid' }))]), z.transform(commaList)),
      z.array(AppointmentStatus),
    ),
    'One or more statuses: `a,b` or the parameter repeated.',
    'scheduled,confirmed',
  ),
);

/** `from`/`to` are practice-local dates (inclusive); `startDate`/`endDate` are accepted too (API reference, appointments). */
const FROM =
  'First practice-local date, inclusive. Without dates: today and the next 30 days; a range spans at most 366 days.';
const TO = 'Last practice-local date, inclusive.';
const filterId = (kind: 'provider' | 'client' | 'service', also?: string) =>
  z.optional(IdOf(kind, `Only this ${kind}'s appointments${also ? ` (${also})` : ''}.`));
export const ListAppointmentsQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    from: doc(z.optional(LocalDate), FROM, '2026-12-01'),
    to: doc(z.optional(LocalDate), TO, '2026-12-07'),
    startDate: doc(z.optional(LocalDate), "Same as `from` (the seed spec's name).", '2026-12-01'),
    endDate: doc(z.optional(LocalDate), "Same as `to` (the seed spec's name).", '2026-12-07'),
    provider_id: filterId('provider'),
    client_id: filterId('client'),
    service_id: filterId('service'),
    providerId: filterId('provider', 'same as provider_id'),
    clientId: filterId('client', 'same as client_id'),
    serviceId: filterId('service', 'same as service_id'),
    status: z.optional(StatusList),
  }),
);

export const AppointmentListItem = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('appointment', 'The appointment id.'),
      client: doc(
        z.object({
          id: OutId('client', 'The client id.'),
          first_name: doc(z.nullable(z.string()), 'First name (as it is now).', 'Olivia'),
          last_name: doc(z.nullable(z.string()), 'Last name (as it is now).', 'Hart'),
        }),
        'The client, by name.',
      ),
      service: doc(
        z.object({
          id: OutId('service', 'The service id.'),
          name: doc(z.nullable(z.string()), 'Service name.', 'Botox'),
          duration_minutes: doc(z.nullable(z.number().check(z.int())), "The service's usual duration.", 30),
        }),
        'The service, by name.',
      ),
      provider: doc(
        z.object({
          id: OutId('provider', 'The provider id.'),
          full_name: doc(z.nullable(z.string()), 'Provider name.', 'Ava Reyes'),
        }),
        'The provider, by name.',
      ),
      scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
      duration_minutes: doc(z.number().check(z.int()), 'Length in minutes.', 30),
      status: AppointmentStatus,
    }),
    {
      description: 'An appointment in a list, with the names of its client, service and provider.',
      id: 'AppointmentListItem',
    },
  ),
);

const roomFilter = /* @__PURE__ */ schema(() =>
  z.optional(IdOf('room', 'Also check this room (else 404 ROOM_NOT_FOUND).')),
);
const equipmentFilter = /* @__PURE__ */ schema(() =>
  z.optional(IdOf('equipment', 'Also check this equipment (else 404 EQUIPMENT_NOT_FOUND).')),
);

export const AvailabilityQuery = /* @__PURE__ */ schema(() =>
  z.object({
    start: doc(DateTime, 'Start of the interval, with an offset.', '2026-12-01T10:00:00-05:00'),
    end: doc(DateTime, 'End of the interval (exclusive), with an offset.', '2026-12-01T11:00:00-05:00'),
    service_id: z.optional(
      IdOf(
        'service',
        "Give the interval this service's buffers: [start - before, end + after) must overlap no booking's held time (else 404 SERVICE_NOT_FOUND). Without it, no buffers.",
      ),
    ),
    room_id: roomFilter,
    equipment_id: equipmentFilter,
  }),
);
export const AvailabilityResult = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      isAvailable: doc(z.boolean(), 'True when nothing conflicts.', false),
      conflicts: doc(
        z.array(
          doc(
            z.object({
              type: doc(
                z.string(),
                'outside_working_hours, time_off, inactive, overlap, room or equipment.',
                'overlap',
              ),
              start: z.optional(Instant('Start of the conflicting interval.', EXAMPLE_TIME.start)),
              end: z.optional(Instant('End of the conflicting interval.', EXAMPLE_TIME.end)),
              appointment_id: z.optional(OutId('appointment', 'The overlapping appointment, for overlaps.')),
              hold_id: z.optional(OutId('hold', 'The overlapping hold, for overlaps with a hold.')),
            }),
            'One reason the interval is not free.',
          ),
        ),
        'Why not (empty when available).',
      ),
    }),
    'Whether the provider (and room/equipment) is free for [start, end).',
  ),
);

const Minutes = (min: number, max: number, description: string, example: number) =>
  doc(z.optional(z.coerce.number().check(z.int(), z.gte(min), z.lte(max))), description, example);
export const SlotsQuery = /* @__PURE__ */ schema(() =>
  z.object({
    date: doc(LocalDate, 'The practice-local date.', '2026-12-01'),
    duration_minutes: Minutes(
      5,
      480,
      "Length of the slots in minutes (5-480); or give service_id to use the service's.",
      60,
    ),
    durationMinutes: Minutes(5, 480, 'Same as duration_minutes.', 60),
    interval_minutes: Minutes(5, 240, 'Minutes between slot starts (5-240, default 15).', 15),
    intervalMinutes: Minutes(5, 240, 'Same as interval_minutes.', 15),
    service_id: z.optional(
      IdOf(
        'service',
        "Use this service's buffers, and its duration when duration_minutes is absent (else 404 SERVICE_NOT_FOUND). Without it, slots have no buffers.",
      ),
    ),
    room_id: roomFilter,
    equipment_id: equipmentFilter,
  }),
);
export const Slot = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      slot_start: Instant('Start (UTC).', EXAMPLE_TIME.start),
      slot_end: Instant('End (UTC).', EXAMPLE_TIME.end),
    }),
    { description: 'A bookable interval.', id: 'Slot' },
  ),
);

export const ReminderResult = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      event_id: doc(
        z.string(),
        'The id the appointment.reminder event is delivered with (`webhook-id`).',
        'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b',
      ),
      appointment_id: OutId('appointment', 'The appointment.'),
      requested_at: Instant('When it was requested.'),
    }),
    'A reminder request: the event goes out through the webhook pipeline.',
  ),
);

/** Provider ids as `a,b` or repeated, like `status`; duplicates count once. */
const ProviderIdList = /* @__PURE__ */ schema(() =>
  doc(
    z.pipe(
      // Repeated, each value is one id; `a,b` is a list, so only the array's items say uuid.
      z.pipe(z.union([z.string(), z.array(meta(z.string(), { format: 'uuid' }))]), z.transform(commaList)),
      z.pipe(
        z.pipe(
          z.array(IdOf('provider', 'A provider id.')),
          z.transform((ids) => [...new Set(ids)]),
        ),
        z.array(z.string()).check(z.maxLength(20, 'at most 20 providers')),
      ),
    ),
    'One or more provider ids: `a,b` or the parameter repeated (at most 20). Default: every active provider certified for the service.',
    EXAMPLE_ID.provider,
  ),
);

/** GET /v1/availability (API reference, appointments). Unknown parameters are refused, so a typo never widens a search. */
export const AvailabilitySearchQuery = /* @__PURE__ */ schema(() =>
  z.object({
    service_id: z.optional(
      IdOf(
        'service',
        'The service to book (else 404 SERVICE_NOT_FOUND). Required unless both provider_id and duration_minutes are given.',
      ),
    ),
    from: doc(LocalDate, 'First practice-local date, inclusive.', '2026-12-01'),
    to: doc(LocalDate, 'Last practice-local date, inclusive; at most 31 days from `from` counting both.', '2026-12-07'),
    provider_id: z.optional(ProviderIdList),
    duration_minutes: doc(
      z.optional(z.coerce.number().check(z.int(), z.gte(5), z.lte(480))),
      "Slot length in minutes (5-480). Default: the service's duration.",
      60,
    ),
    interval_minutes: doc(
      z._default(z.coerce.number().check(z.int(), z.gte(5), z.lte(240)), 15),
      'Minutes between slot starts (5-240).',
      15,
    ),
    room_id: roomFilter,
    equipment_id: equipmentFilter,
    time_zone: doc(
      z.optional(TimeZone),
      "IANA zone whose local dates group the slots (times stay UTC). Default: the practice's.",
      'Europe/Paris',
    ),
  }),
);

export const AvailabilityEntry = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      date: meta(doc(z.string(), 'Local date of the slots in `time_zone` (default the practice zone).', '2026-12-01'), {
        format: 'date',
      }),
      provider: doc(
        z.object({
          id: OutId('provider', 'The provider id.'),
          full_name: doc(z.string(), 'Provider name.', 'Ava Reyes'),
        }),
        'The provider.',
      ),
      slots: doc(z.array(Slot), 'Bookable slots, in time order.'),
    }),
    { description: 'The bookable slots of one provider on one date.', id: 'AvailabilityEntry' },
  ),
);
