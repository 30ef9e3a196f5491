import * as z from 'zod';
import { APPOINTMENT_SOURCES } from '../domain/records/common';
import { APPOINTMENT_STATUSES } from '../domain/status';
import { DateTime, doc, EXAMPLE_ID, EXAMPLE_TIME, IdOf, Instant, LocalDate, OutId, PageQuery, schema, Timestamps } from './common';
import { TimeZone } from './practice';

export const AppointmentStatus = /* @__PURE__ */ schema(() => doc(
  z.enum(APPOINTMENT_STATUSES),
  'scheduled -> confirmed -> checked_in -> in_progress -> completed; scheduled, confirmed or in_progress -> cancelled; checked_in -> no_show. completed, cancelled and no_show are final.',
  'scheduled',
));
export const AppointmentSource = /* @__PURE__ */ schema(() => doc(z.enum(APPOINTMENT_SOURCES), 'Where the booking came from, for attribution.', 'online'));
const Duration = /* @__PURE__ */ schema(() => doc(z.number().int().min(5).max(480), 'Length in minutes, 5-480.', 60));
const Notes = /* @__PURE__ */ schema(() => z.string().max(5000));
const ClientNotes = /* @__PURE__ */ schema(() => doc(Notes, 'Notes the client may see (at most 5000 characters).', 'First visit; prefers the afternoon.'));
const InternalNotes = /* @__PURE__ */ schema(() => doc(Notes, 'Staff-only notes (at most 5000 characters).', 'Check allergy list before treatment.'));
const ScheduledAt = /* @__PURE__ */ schema(() => doc(
  DateTime,
  'Start, with an offset; at most 5 minutes in the past. The provider must be free for [scheduled_at, scheduled_at + duration).',
  '2026-12-01T10:00:00-05:00',
));
const PriceCents = /* @__PURE__ */ schema(() => doc(z.number().int().min(0), "Price in the practice's currency, minor units. Default: the service's price at booking time.", 45000));
const ids = /* @__PURE__ */ schema(() => ({
  client: IdOf('client', 'The client receiving the service (else 404 CLIENT_NOT_FOUND).'),
  service: IdOf('service', 'The service performed (else 404 SERVICE_NOT_FOUND; inactive: 400).'),
  provider: IdOf('provider', 'The provider performing it: must be certified for the service (else 422 PROVIDER_NOT_CERTIFIED).'),
  room: IdOf('room', 'A treatment room to book with it (else 404 ROOM_NOT_FOUND), or null.'),
  equipment: IdOf('equipment', 'Equipment to book with it (else 404 EQUIPMENT_NOT_FOUND), or null.'),
}));

export const Appointment = /* @__PURE__ */ schema(() => z
  .object({
    id: OutId('appointment', 'The appointment id.'),
    medspa_id: OutId('practice', 'The practice it belongs to.'),
    client_id: OutId('client', 'The client receiving the service.'),
    service_id: OutId('service', 'The service performed.'),
    provider_id: OutId('provider', 'The provider performing it.'),
    room_id: OutId('room', 'The booked room, if any.').nullable(),
    equipment_id: OutId('equipment', 'The booked equipment, if any.').nullable(),
    scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
    end_at: Instant('End (UTC): scheduled_at + duration_minutes.', EXAMPLE_TIME.end),
    duration_minutes: doc(z.number().int(), 'Length in minutes.', 60),
    status: AppointmentStatus,
    notes: doc(z.string().nullable(), 'Notes the client may see.', 'First visit; prefers the afternoon.'),
    internal_notes: doc(z.string().nullable(), 'Staff-only notes.', null),
    source: AppointmentSource,
    price_cents: doc(z.number().int(), "Price in the practice's currency, minor units.", 45000),
    cancelled_at: Instant('When it was cancelled; null unless cancelled.').nullable().meta({ examples: [null] }),
    cancellation_reason: doc(z.string().nullable(), 'Why it was cancelled (`client_deleted` when its client was deleted); null unless cancelled.', null),
    ...Timestamps,
  })
  .describe('An appointment: one client, one service, one provider (and optionally a room and equipment) for a time.').meta({ id: 'Appointment' }));
export type Appointment = z.infer<typeof Appointment>;

export const CreateAppointmentBody = /* @__PURE__ */ schema(() => z
  .object({
    client_id: ids.client,
    service_id: ids.service,
    provider_id: ids.provider,
    scheduled_at: ScheduledAt,
    duration_minutes: doc(Duration.optional(), "Length in minutes, 5-480; overrides the service's duration.", 60),
    room_id: ids.room.nullish(),
    equipment_id: ids.equipment.nullish(),
    notes: ClientNotes.nullish(),
    internal_notes: InternalNotes.nullish(),
    source: doc(AppointmentSource.default('manual'), 'Where the booking came from (default manual).', 'online'),
    price_cents: PriceCents.optional(),
  })
  .strict()
  .describe('A booking. Validated in this order: client, service, provider, certification, provider availability, room, equipment.'));
export type CreateAppointmentInput = z.infer<typeof CreateAppointmentBody>;

export const UpdateAppointmentBody = /* @__PURE__ */ schema(() => z
  .object({
    scheduled_at: doc(ScheduledAt, 'New start (a move): re-validated like a create; only scheduled and confirmed appointments move.', '2026-12-01T14:00:00-05:00'),
    duration_minutes: Duration,
    provider_id: ids.provider,
    room_id: ids.room.nullable(),
    equipment_id: ids.equipment.nullable(),
    notes: ClientNotes.nullable(),
    internal_notes: InternalNotes.nullable(),
    price_cents: doc(z.number().int().min(0), "Price in the practice's currency, minor units.", 40000),
  })
  .partial()
  .strict()
  .describe('Any subset of the fields. A change of time or resources is re-validated like a create and frees the old time in the same write.'));
export type UpdateAppointmentInput = z.infer<typeof UpdateAppointmentBody>;

export const StatusBody = /* @__PURE__ */ schema(() => z
  .object({ status: doc(AppointmentStatus, 'The status to move to; a move not allowed from the current status is 409 INVALID_STATUS_TRANSITION.', 'confirmed') })
  .strict()
  .describe('The next status.'));
export const CancelBody = /* @__PURE__ */ schema(() => z
  .object({ reason: doc(z.string().max(1000).optional(), 'Why (at most 1000 characters), kept as cancellation_reason.', 'Client is travelling') })
  .strict()
  .optional()
  .describe('Optional; an empty body cancels without a reason.'));

/** `a,b` or the parameter repeated (API Gateway joins repeats with commas), blanks dropped. */
const commaList = (value: string | string[]) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);

const StatusList = /* @__PURE__ */ schema(() => z
  .union([z.string(), z.array(z.string())])
  .transform(commaList)
  .pipe(z.array(AppointmentStatus))
  .meta({ description: 'One or more statuses: `a,b` or the parameter repeated.', examples: ['scheduled,confirmed'] }));

/** `from`/`to` are practice-local dates (inclusive); `startDate`/`endDate` are accepted too (API reference, appointments). */
const FROM = 'First practice-local date, inclusive. Without dates: today and the next 30 days; a range spans at most 366 days.';
const TO = 'Last practice-local date, inclusive.';
const filterId = (kind: 'provider' | 'client' | 'service', also?: string) =>
  IdOf(kind, `Only this ${kind}'s appointments${also ? ` (${also})` : ''}.`).optional();
export const ListAppointmentsQuery = /* @__PURE__ */ schema(() => PageQuery.extend({
  from: doc(LocalDate.optional(), FROM, '2026-12-01'),
  to: doc(LocalDate.optional(), TO, '2026-12-07'),
  startDate: doc(LocalDate.optional(), 'Same as `from` (the seed spec\'s name).', '2026-12-01'),
  endDate: doc(LocalDate.optional(), 'Same as `to` (the seed spec\'s name).', '2026-12-07'),
  provider_id: filterId('provider'),
  client_id: filterId('client'),
  service_id: filterId('service'),
  providerId: filterId('provider', 'same as provider_id'),
  clientId: filterId('client', 'same as client_id'),
  serviceId: filterId('service', 'same as service_id'),
  status: StatusList.optional(),
}));

export const AppointmentListItem = /* @__PURE__ */ schema(() => z
  .object({
    id: OutId('appointment', 'The appointment id.'),
    client: z
      .object({
        id: OutId('client', 'The client id.'),
        first_name: doc(z.string().nullable(), 'First name (as it is now).', 'Olivia'),
        last_name: doc(z.string().nullable(), 'Last name (as it is now).', 'Hart'),
      })
      .describe('The client, by name.'),
    service: z
      .object({
        id: OutId('service', 'The service id.'),
        name: doc(z.string().nullable(), 'Service name.', 'Botox'),
        duration_minutes: doc(z.number().int().nullable(), "The service's usual duration.", 30),
      })
      .describe('The service, by name.'),
    provider: z
      .object({ id: OutId('provider', 'The provider id.'), full_name: doc(z.string().nullable(), 'Provider name.', 'Ava Reyes') })
      .describe('The provider, by name.'),
    scheduled_at: Instant('Start (UTC).', EXAMPLE_TIME.start),
    duration_minutes: doc(z.number().int(), 'Length in minutes.', 30),
    status: AppointmentStatus,
  })
  .describe('An appointment in a list, with the names of its client, service and provider.').meta({ id: 'AppointmentListItem' }));

export const TreatmentRecordBody = /* @__PURE__ */ schema(() => z
  .object({
    summary: doc(z.string().max(5000).optional(), 'What was done, in a sentence or two.', 'Botox, glabella and forehead lines.'),
    notes: doc(z.string().max(20000).optional(), 'Clinical notes.', 'No adverse reaction; mild erythema resolved in 10 minutes.'),
    areas_treated: doc(z.array(doc(z.string().max(200), 'An area.', 'glabella')).max(50).optional(), 'Areas treated (at most 50).', ['glabella', 'forehead']),
    products_used: doc(
      z
        .array(
          z
            .object({
              name: doc(z.string().max(200), 'Product name.', 'Botox Cosmetic 100U'),
              quantity: doc(z.number().min(0.0001).max(1_000_000).optional(), 'Amount used, in `unit`.', 20),
              unit: doc(z.string().max(50).optional(), 'Unit of `quantity`.', 'units'),
              lot_number: doc(z.string().max(100).optional(), 'Manufacturer lot, for traceability.', 'C1234A5'),
            })
            .strict()
            .describe('A product used.'),
        )
        .max(50)
        .optional(),
      'Products used (at most 50).',
    ),
    dosage: doc(z.string().max(1000).optional(), 'Dosage given.', '20 units'),
    follow_up: doc(z.string().max(2000).optional(), 'Follow-up advice or plan.', 'Review in 2 weeks.'),
  })
  .strict()
  .describe('The treatment record (clinical documentation); a PUT replaces it whole.'));

export const TreatmentRecord = /* @__PURE__ */ schema(() => TreatmentRecordBody.extend({
  appointment_id: OutId('appointment', 'The appointment it documents.'),
  client_id: OutId('client', 'The client treated.'),
  provider_id: OutId('provider', 'The provider who treated.'),
  recorded_by: doc(z.string(), 'The API credential (client_id) that wrote it.', 'ms_3f2b8c1e_provider_k2j4'),
  ...Timestamps,
}).describe('The treatment record of an appointment.').meta({ id: 'TreatmentRecord' }));
export type TreatmentRecord = z.infer<typeof TreatmentRecord>;


const roomFilter = /* @__PURE__ */ schema(() => IdOf('room', 'Also check this room (else 404 ROOM_NOT_FOUND).').optional());
const equipmentFilter = /* @__PURE__ */ schema(() => IdOf('equipment', 'Also check this equipment (else 404 EQUIPMENT_NOT_FOUND).').optional());

export const AvailabilityQuery = /* @__PURE__ */ schema(() => z.object({
  start: doc(DateTime, 'Start of the interval, with an offset.', '2026-12-01T10:00:00-05:00'),
  end: doc(DateTime, 'End of the interval (exclusive), with an offset.', '2026-12-01T11:00:00-05:00'),
  room_id: roomFilter,
  equipment_id: equipmentFilter,
}));
export const AvailabilityResult = /* @__PURE__ */ schema(() => z
  .object({
    isAvailable: doc(z.boolean(), 'True when nothing conflicts.', false),
    conflicts: doc(
      z.array(
        z
          .object({
            type: doc(z.string(), 'outside_working_hours, time_off, inactive, overlap, room or equipment.', 'overlap'),
            start: Instant('Start of the conflicting interval.', EXAMPLE_TIME.start).optional(),
            end: Instant('End of the conflicting interval.', EXAMPLE_TIME.end).optional(),
            appointment_id: OutId('appointment', 'The overlapping appointment, for overlaps.').optional(),
          })
          .describe('One reason the interval is not free.'),
      ),
      'Why not (empty when available).',
    ),
  })
  .describe('Whether the provider (and room/equipment) is free for [start, end).'));

const Minutes = (min: number, max: number, description: string, example: number) => doc(z.coerce.number().int().min(min).max(max).optional(), description, example);
export const SlotsQuery = /* @__PURE__ */ schema(() => z.object({
  date: doc(LocalDate, 'The practice-local date.', '2026-12-01'),
  duration_minutes: Minutes(5, 480, "Length of the slots in minutes (5-480); or give service_id to use the service's.", 60),
  durationMinutes: Minutes(5, 480, 'Same as duration_minutes.', 60),
  interval_minutes: Minutes(5, 240, 'Minutes between slot starts (5-240, default 15).', 15),
  intervalMinutes: Minutes(5, 240, 'Same as interval_minutes.', 15),
  service_id: IdOf('service', "Use this service's duration (else 404 SERVICE_NOT_FOUND).").optional(),
  room_id: roomFilter,
  equipment_id: equipmentFilter,
}));
export const Slot = /* @__PURE__ */ schema(() => z
  .object({ slot_start: Instant('Start (UTC).', EXAMPLE_TIME.start), slot_end: Instant('End (UTC).', EXAMPLE_TIME.end) })
  .describe('A bookable interval.').meta({ id: 'Slot' }));

export const ReminderResult = /* @__PURE__ */ schema(() => z
  .object({
    event_id: doc(z.string(), 'The id the appointment.reminder event is delivered with (`webhook-id`).', 'evt_0f8e2a7c4b1d4e6f9a3b5c7d9e1f2a4b'),
    appointment_id: OutId('appointment', 'The appointment.'),
    requested_at: Instant('When it was requested.'),
  })
  .describe('A reminder request: the event goes out through the webhook pipeline.'));

/** Provider ids as `a,b` or repeated, like `status`; duplicates count once. */
const ProviderIdList = /* @__PURE__ */ schema(() => z
  .union([z.string(), z.array(z.string())])
  .transform(commaList)
  .pipe(z.array(IdOf('provider', 'A provider id.')).transform((ids) => [...new Set(ids)]).pipe(z.array(z.string()).max(20, 'at most 20 providers')))
  .meta({
    description: 'One or more provider ids: `a,b` or the parameter repeated (at most 20). Default: every active provider certified for the service.',
    examples: [EXAMPLE_ID.provider],
  }));

/** GET /v1/availability (API reference, appointments). Unknown parameters are refused, so a typo never widens a search. */
export const AvailabilitySearchQuery = /* @__PURE__ */ schema(() => z
  .object({
    service_id: IdOf('service', 'The service to book (else 404 SERVICE_NOT_FOUND). Required unless both provider_id and duration_minutes are given.').optional(),
    from: doc(LocalDate, 'First practice-local date, inclusive.', '2026-12-01'),
    to: doc(LocalDate, 'Last practice-local date, inclusive; at most 31 days from `from` counting both.', '2026-12-07'),
    provider_id: ProviderIdList.optional(),
    duration_minutes: doc(z.coerce.number().int().min(5).max(480).optional(), "Slot length in minutes (5-480). Default: the service's duration.", 60),
    interval_minutes: doc(z.coerce.number().int().min(5).max(240).default(15), 'Minutes between slot starts (5-240).', 15),
    room_id: roomFilter,
    equipment_id: equipmentFilter,
    time_zone: doc(TimeZone.optional(), "IANA zone whose local dates group the slots (times stay UTC). Default: the practice's.", 'Europe/Paris'),
  }));

export const AvailabilityEntry = /* @__PURE__ */ schema(() => z
  .object({
    date: doc(z.string(), 'Local date of the slots in `time_zone` (default the practice zone).', '2026-12-01').meta({ format: 'date' }),
    provider: z
      .object({ id: OutId('provider', 'The provider id.'), full_name: doc(z.string(), 'Provider name.', 'Ava Reyes') })
      .describe('The provider.'),
    slots: doc(z.array(Slot), 'Bookable slots, in time order.'),
  })
  .describe('The bookable slots of one provider on one date.').meta({ id: 'AvailabilityEntry' }));
