import * as z from 'zod';
import { APPOINTMENT_SOURCES } from '../domain/records';
import { APPOINTMENT_STATUSES } from '../domain/status';
import { DateTime, Id, LocalDate, PageQuery, Timestamps } from './common';
import { TimeZone } from './practice';

export const AppointmentStatus = z.enum(APPOINTMENT_STATUSES);
export const AppointmentSource = z.enum(APPOINTMENT_SOURCES);
const Duration = z.number().int().min(5).max(480);
const Notes = z.string().max(5000);

export const Appointment = z.object({
  id: z.string(),
  medspa_id: z.string(),
  client_id: z.string(),
  service_id: z.string(),
  provider_id: z.string(),
  room_id: z.string().nullable(),
  equipment_id: z.string().nullable(),
  scheduled_at: z.string(),
  end_at: z.string(),
  duration_minutes: z.number().int(),
  status: AppointmentStatus,
  notes: z.string().nullable(),
  internal_notes: z.string().nullable(),
  source: AppointmentSource,
  price_cents: z.number().int(),
  cancelled_at: z.string().nullable(),
  cancellation_reason: z.string().nullable(),
  ...Timestamps,
});
export type Appointment = z.infer<typeof Appointment>;

export const CreateAppointmentBody = z
  .object({
    client_id: Id,
    service_id: Id,
    provider_id: Id,
    scheduled_at: DateTime,
    duration_minutes: Duration.optional(),
    room_id: Id.nullish(),
    equipment_id: Id.nullish(),
    notes: Notes.nullish(),
    internal_notes: Notes.nullish(),
    source: AppointmentSource.default('manual'),
    price_cents: z.number().int().min(0).optional(),
  })
  .strict();
export type CreateAppointmentInput = z.infer<typeof CreateAppointmentBody>;

export const UpdateAppointmentBody = z
  .object({
    scheduled_at: DateTime,
    duration_minutes: Duration,
    provider_id: Id,
    room_id: Id.nullable(),
    equipment_id: Id.nullable(),
    notes: Notes.nullable(),
    internal_notes: Notes.nullable(),
    price_cents: z.number().int().min(0),
  })
  .partial()
  .strict();
export type UpdateAppointmentInput = z.infer<typeof UpdateAppointmentBody>;

export const StatusBody = z.object({ status: AppointmentStatus }).strict();
export const CancelBody = z.object({ reason: z.string().max(1000).optional() }).strict().optional();

/** `a,b` or the parameter repeated (API Gateway joins repeats with commas), blanks dropped. */
const commaList = (value: string | string[]) => (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);

const StatusList = z
  .union([z.string(), z.array(z.string())])
  .transform(commaList)
  .pipe(z.array(AppointmentStatus));

/** `from`/`to` are practice-local dates (inclusive); `startDate`/`endDate` are accepted too (contract 4). */
export const ListAppointmentsQuery = PageQuery.extend({
  from: LocalDate.optional(),
  to: LocalDate.optional(),
  startDate: LocalDate.optional(),
  endDate: LocalDate.optional(),
  provider_id: Id.optional(),
  client_id: Id.optional(),
  service_id: Id.optional(),
  providerId: Id.optional(),
  clientId: Id.optional(),
  serviceId: Id.optional(),
  status: StatusList.optional(),
});

export const AppointmentListItem = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
  service: z.object({ id: z.string(), name: z.string().nullable(), duration_minutes: z.number().int().nullable() }),
  provider: z.object({ id: z.string(), full_name: z.string().nullable() }),
  scheduled_at: z.string(),
  duration_minutes: z.number().int(),
  status: AppointmentStatus,
});

export const TreatmentRecordBody = z
  .object({
    summary: z.string().max(5000).optional(),
    notes: z.string().max(20000).optional(),
    areas_treated: z.array(z.string().max(200)).max(50).optional(),
    products_used: z
      .array(z.object({ name: z.string().max(200), quantity: z.number().min(0.0001).max(1_000_000).optional(), unit: z.string().max(50).optional(), lot_number: z.string().max(100).optional() }).strict())
      .max(50)
      .optional(),
    dosage: z.string().max(1000).optional(),
    follow_up: z.string().max(2000).optional(),
  })
  .strict();

export const TreatmentRecord = TreatmentRecordBody.extend({
  appointment_id: z.string(),
  client_id: z.string(),
  provider_id: z.string(),
  recorded_by: z.string(),
  ...Timestamps,
});
export type TreatmentRecord = z.infer<typeof TreatmentRecord>;


export const AvailabilityQuery = z.object({
  start: DateTime,
  end: DateTime,
  room_id: Id.optional(),
  equipment_id: Id.optional(),
});
export const AvailabilityResult = z.object({
  isAvailable: z.boolean(),
  conflicts: z.array(
    z.object({
      type: z.string(),
      start: z.string().optional(),
      end: z.string().optional(),
      appointment_id: z.string().optional(),
    }),
  ),
});

export const SlotsQuery = z.object({
  date: LocalDate,
  duration_minutes: z.coerce.number().int().min(5).max(480).optional(),
  durationMinutes: z.coerce.number().int().min(5).max(480).optional(),
  interval_minutes: z.coerce.number().int().min(5).max(240).optional(),
  intervalMinutes: z.coerce.number().int().min(5).max(240).optional(),
  service_id: Id.optional(),
  room_id: Id.optional(),
  equipment_id: Id.optional(),
});
export const Slot = z.object({ slot_start: z.string(), slot_end: z.string() });

export const ReminderResult = z.object({ event_id: z.string(), appointment_id: z.string(), requested_at: z.string() });

/** Provider ids as `a,b` or repeated, like `status`; duplicates count once. */
const ProviderIdList = z
  .union([z.string(), z.array(z.string())])
  .transform(commaList)
  .pipe(z.array(Id).transform((ids) => [...new Set(ids)]).pipe(z.array(z.string()).max(20, 'at most 20 providers')))
  .describe('One or more provider ids: `a,b` or the parameter repeated (at most 20). Default: every active provider certified for the service.');

/** GET /v1/availability (contract 4). Unknown parameters are refused, so a typo never widens a search. */
export const AvailabilitySearchQuery = z
  .object({
    service_id: Id.optional().describe('Required unless both provider_id and duration_minutes are given.'),
    from: LocalDate.describe('First practice-local date, inclusive.'),
    to: LocalDate.describe('Last practice-local date, inclusive; at most 31 days from `from` counting both.'),
    provider_id: ProviderIdList.optional(),
    duration_minutes: z.coerce.number().int().min(5).max(480).optional().describe("Default: the service's duration."),
    interval_minutes: z.coerce.number().int().min(5).max(240).default(15),
    room_id: Id.optional(),
    equipment_id: Id.optional(),
    time_zone: TimeZone.optional().describe("IANA zone whose local dates group the slots (times stay UTC). Default: the practice's."),
  });

export const AvailabilityEntry = z.object({
  date: z.string().describe('Local date of the slots in `time_zone` (default the practice zone).'),
  provider: z.object({ id: z.string(), full_name: z.string() }),
  slots: z.array(Slot),
});
