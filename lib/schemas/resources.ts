import * as z from 'zod';
import type { TimeOff, WorkingHours } from '../domain/availability';
import { HEALTH_SCORE_FORMULA } from '../domain/health-score';
import type { WeekdayKey } from '../domain/time';
import { DateTime, Id, IdParams, LocalDate, LocalTime, PageQuery, Timestamps } from './common';

/**
 * Setup resources of contract section 5 that scheduling needs: providers, rooms, equipment,
 * services (with provider assignments = certification) and clients.
 *
 * Each resource has a `Shape` (its writable fields, no defaults), a create body (shape + defaults,
 * strict), a PATCH body (partial + strict) and a response schema (every public field).
 * Defaults live only in create bodies: a default inside a PATCH body would reset the field.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly WeekdayKey[];

/** A path id: an unknown or malformed id is a 404 of its resource, never a 400 (see Id). */
export const ResourceParams = IdParams;
export const ServiceProviderParams = z.object({ id: Id, provider_id: Id });

const Name = z.string().trim().min(1).max(200);
const Text = (max: number) => z.string().trim().max(max);
const Email = z.email().max(254);
const Phone = z.string().trim().regex(/^\+?[0-9 ().\-x]{3,40}$/, 'expected a phone number such as +1 555 010 0100');

/** Set on soft delete; a record with it is hidden everywhere. Never in a response. */
export type SoftDeleted = { deleted_at?: string };

/** A response object: id and practice first, then the fields, then version and timestamps. */
const resource = <F extends z.ZodRawShape>(fields: F) => z.object({ id: z.string(), medspa_id: z.string(), ...fields, ...Timestamps });

/**
 * The create body is the shape with `onCreate`'s optional fields and defaults; the PATCH body is
 * any subset of the plain shape (no defaults, or a PATCH would reset them). Both strict.
 */
function bodiesOf<S extends z.ZodRawShape, C extends Partial<Record<keyof S, z.ZodType>>>(shape: S, onCreate: C) {
  return {
    create: z.object({ ...shape, ...onCreate } as Omit<S, keyof C> & C).strict(),
    update: z.object(shape).partial().strict(),
  };
}

// ---------------------------------------------------------------------------------------------
// Providers

export const WorkingPeriod = z
  .object({ start: LocalTime, end: LocalTime })
  .strict()
  .refine((period) => period.start < period.end, { message: 'end must be after start', path: ['end'] });

export const WorkingHoursSchema = z
  .object(Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(WorkingPeriod).max(12)])) as Record<WeekdayKey, z.ZodArray<typeof WorkingPeriod>>)
  .partial()
  .strict()
  .describe('Practice-local HH:MM periods per weekday (mon..sun); "24:00" is the next midnight. A PATCH replaces only the days it names.');

export const TimeOffEntry = z
  .object({ start: DateTime, end: DateTime, reason: Text(500).optional() })
  .strict()
  .refine((entry) => Date.parse(entry.start) < Date.parse(entry.end), { message: 'end must be after start', path: ['end'] });

const ProviderShape = {
  first_name: Name,
  last_name: Name,
  email: Email.nullable(),
  title: Text(200).nullable(),
  working_hours: WorkingHoursSchema,
  time_off: z.array(TimeOffEntry).max(500).describe('Replaced as a whole on PATCH. Output in UTC.'),
  active: z.boolean(),
};

const ProviderBodies = bodiesOf(ProviderShape, {
  email: ProviderShape.email.optional(),
  title: ProviderShape.title.optional(),
  working_hours: ProviderShape.working_hours.optional(),
  time_off: ProviderShape.time_off.optional(),
  active: ProviderShape.active.default(true),
});
export const CreateProviderBody = ProviderBodies.create;
export const UpdateProviderBody = ProviderBodies.update;
export type CreateProviderInput = z.output<typeof CreateProviderBody>;
export type UpdateProviderInput = z.output<typeof UpdateProviderBody>;

export const Provider = resource({
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string().describe('first_name + " " + last_name (read-only)'),
  email: z.string().nullable(),
  title: z.string().nullable(),
  working_hours: z.object(Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(z.object({ start: z.string(), end: z.string() })).default([])]))),
  time_off: z.array(z.object({ start: z.string(), end: z.string(), reason: z.string().nullable().default(null) })),
  active: z.boolean(),
});

/** A stored provider: `working_hours` and `time_off` are what lib/domain/availability expects. */
export type ProviderRecord = Omit<z.output<typeof Provider>, 'working_hours' | 'time_off'> &
  SoftDeleted & {
    /** Every weekday key present, periods sorted by start. */
    working_hours: WorkingHours;
    /** UTC ISO instants, sorted by start; `reason` only when given. */
    time_off: TimeOff[];
  };

// ---------------------------------------------------------------------------------------------
// Rooms and equipment (same shape)

const FacilityShape = {
  name: Name,
  description: Text(2000).nullable(),
  active: z.boolean(),
};

const FacilityBodies = bodiesOf(FacilityShape, { description: FacilityShape.description.optional(), active: FacilityShape.active.default(true) });
export const CreateFacilityBody = FacilityBodies.create;
export const UpdateFacilityBody = FacilityBodies.update;
export type CreateFacilityInput = z.output<typeof CreateFacilityBody>;
export type UpdateFacilityInput = z.output<typeof UpdateFacilityBody>;

export const Facility = resource({ name: z.string(), description: z.string().nullable(), active: z.boolean() });

export type FacilityRecord = z.output<typeof Facility> & SoftDeleted;

export const CreateRoomBody = CreateFacilityBody;
export const UpdateRoomBody = UpdateFacilityBody;
export const Room = Facility;
export type RoomRecord = FacilityRecord;
export const CreateEquipmentBody = CreateFacilityBody;
export const UpdateEquipmentBody = UpdateFacilityBody;
export const Equipment = Facility;
export type EquipmentRecord = FacilityRecord;

// ---------------------------------------------------------------------------------------------
// Services

const ServiceShape = {
  name: Name,
  description: Text(2000).nullable(),
  category: Text(100).min(1).nullable(),
  price_cents: z.number().int().min(0).max(100_000_000),
  duration_minutes: z.number().int().min(5).max(480),
  active: z.boolean(),
  provider_ids: z.array(Id).max(200).describe('Providers certified for this service; each must exist (else 404 PROVIDER_NOT_FOUND).'),
};

const ServiceBodies = bodiesOf(ServiceShape, {
  description: ServiceShape.description.optional(),
  category: ServiceShape.category.optional(),
  active: ServiceShape.active.default(true),
  provider_ids: ServiceShape.provider_ids.optional(),
});
export const CreateServiceBody = ServiceBodies.create;
export const UpdateServiceBody = ServiceBodies.update;
export const AssignProviderBody = z.object({ provider_id: Id }).strict();
export type CreateServiceInput = z.output<typeof CreateServiceBody>;
export type UpdateServiceInput = z.output<typeof UpdateServiceBody>;

export const Service = resource({
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  price_cents: z.number().int(),
  duration_minutes: z.number().int(),
  active: z.boolean(),
  provider_ids: z.array(z.string()),
});

/** `provider_ids` is the certification: a provider may perform the service iff its id is there. */
export type ServiceRecord = z.output<typeof Service>;

export const ServiceListQuery = PageQuery.extend({ category: z.string().max(100).optional() });

// ---------------------------------------------------------------------------------------------
// Clients

import { MEMBERSHIP_STATUSES } from '../domain/records';

export { MEMBERSHIP_STATUSES };
export const MembershipStatus = z.enum(MEMBERSHIP_STATUSES);

/** The address parts, each from `part(maxLength)`: one list for input and output. */
const addressOf = <T extends z.ZodType>(part: (max: number) => T) =>
  z.object({ line1: part(200), line2: part(200), city: part(100), region: part(100), postal_code: part(20), country: part(100) });

export const AddressInput = addressOf((max) => Text(max).nullable())
  .partial()
  .strict()
  .describe('All parts optional. A PATCH replaces the whole address; null clears it.');

const DateOfBirth = LocalDate.refine((date) => date >= '1900-01-01' && Date.parse(date) <= Date.now() + 86_400_000, 'must be a past date');

const ClientShape = {
  first_name: Name,
  last_name: Name,
  email: Email.nullable(),
  phone: Phone.nullable(),
  date_of_birth: DateOfBirth.nullable(),
  address: AddressInput.nullable(),
  membership_status: MembershipStatus,
  membership_tier: Text(100).nullable(),
  tags: z.array(z.string().trim().min(1).max(50)).max(50),
  notes: Text(5000).nullable(),
};

const ClientBodies = bodiesOf(ClientShape, {
  email: ClientShape.email.optional(),
  phone: ClientShape.phone.optional(),
  date_of_birth: ClientShape.date_of_birth.optional(),
  address: ClientShape.address.optional(),
  membership_status: ClientShape.membership_status.default('none'),
  membership_tier: ClientShape.membership_tier.optional(),
  tags: ClientShape.tags.optional(),
  notes: ClientShape.notes.optional(),
});
export const CreateClientBody = ClientBodies.create;
export const UpdateClientBody = ClientBodies.update;
export type CreateClientInput = z.output<typeof CreateClientBody>;
export type UpdateClientInput = z.output<typeof UpdateClientBody>;

export const Address = addressOf(() => z.string().nullable().default(null));
export type Address = z.output<typeof Address>;

export const Client = resource({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  address: Address.nullable(),
  membership_status: MembershipStatus,
  membership_tier: z.string().nullable(),
  tags: z.array(z.string()),
  notes: z.string().nullable(),
  health_score: z.number().int().min(0).max(100).describe(`0-100 (read-only). ${HEALTH_SCORE_FORMULA}`),
  last_visit_at: z.string().nullable().describe('Scheduled time of the last completed appointment (read-only)'),
  total_spent_cents: z.number().int().describe('Sum of recorded payments (read-only)'),
  visit_count: z.number().int().describe('Completed appointments (read-only)'),
});

export type ClientView = z.output<typeof Client>;

/**
 * A stored client: no `health_score` (it depends on the time, so it is computed at read time)
 * but the no-show count it needs. Visit statistics move with appointments and payments
 * (lib/db/client-stats.ts), also after a deletion, so reports stay right.
 */
export type ClientRecord = Omit<ClientView, 'health_score'> & SoftDeleted & { no_show_count?: number };

export const ClientListQuery = PageQuery.extend({
  q: z
    .string()
    .max(500)
    .optional()
    .describe(
      'Prefix of first name, last name, full name ("first last"), email or phone digits; case- and accent-insensitive. ' +
        'A query of only digits, spaces and + ( ) . - with at least 3 digits matches phone digits (555-01 = 55501). ' +
        'Results are ordered by the matched term; `total` counts distinct matching clients.',
    ),
  membership_status: MembershipStatus.optional(),
});
export const ResourceListQuery = PageQuery;
