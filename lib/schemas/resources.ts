import * as z from './zod';
import { HEALTH_SCORE_FORMULA } from '../domain/health-score';
import { MAX_BUFFER_MINUTES } from '../domain/held-time';
import { WEEKDAYS, type WeekdayKey } from '../domain/time';
import { NO_DEPOSIT } from '../domain/deposits';
import { Deposit } from './deposits';
import { ConsentFilter } from './contact-consents';
import {
  DateTime,
  doc,
  EXAMPLE_ID,
  type ExampleKind,
  IdOf,
  IdParams,
  Instant,
  LocalDate,
  LocalTime,
  meta,
  OutId,
  PageQuery,
  schema,
  Text,
  Timestamps,
  yearsPattern,
} from './common';

/**
 * Setup resources of the API reference's other resources section that scheduling needs: providers, rooms, equipment,
 * services (with provider assignments = certification) and clients.
 *
 * Each resource has a `Shape` (its writable fields, no defaults), a create body (shape + defaults,
 * strict), a PATCH body (partial + strict) and a response schema (every public field).
 * Defaults live only in create bodies: a default inside a PATCH body would reset the field.
 */

/** A path id: an unknown or malformed id is a 404 of its resource, never a 400 (see Id). */
export const ResourceParams = IdParams;
export const ServiceProviderParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('service', 'The service id.'), provider_id: IdOf('provider', 'The provider id.') }),
);

export const Name = /* @__PURE__ */ schema(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(200)));
export const Email = /* @__PURE__ */ schema(() => z.email().check(z.maxLength(254)));
export const Phone = /* @__PURE__ */ schema(() =>
  z.string().check(z.trim(), z.regex(/^\+?[0-9 ().\-x]{3,40}$/, 'expected a phone number such as +1 555 010 0100')),
);
const ACTIVE = 'Inactive ones stay readable but take no new bookings.';

/** A response object: id and practice first, then the fields, then version and timestamps. */
const resource = <F extends z.core.$ZodShape>(kind: ExampleKind, fields: F) =>
  z.object({
    id: OutId(kind, `The ${kind} id.`),
    medspa_id: OutId('practice', 'The practice it belongs to.'),
    ...fields,
    ...Timestamps,
  });

/**
 * The create body is the shape with `onCreate`'s optional fields and defaults; the PATCH body is
 * any subset of the plain shape (no defaults, or a PATCH would reset them). Both strict.
 */
function bodiesOf<S extends z.core.$ZodShape, C extends Partial<Record<keyof S, z.ZodMiniType>>>(
  shape: S,
  onCreate: C,
) {
  return {
    create: z.strictObject({ ...shape, ...onCreate } as Omit<S, keyof C> & C),
    update: z.partial(z.strictObject(shape)),
  };
}

// ---------------------------------------------------------------------------------------------
// Providers

const DAY_NAMES: Record<WeekdayKey, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

export const WorkingPeriod = /* @__PURE__ */ schema(() =>
  doc(
    z
      .strictObject({
        start: doc(LocalTime, 'Start, HH:MM.', '09:00'),
        end: doc(LocalTime, 'End, HH:MM; after start.', '17:00'),
      })
      .check(z.refine((period) => period.start < period.end, { message: 'end must be after start', path: ['end'] })),
    'A working period; `end` must be after `start`.',
  ),
);

export const WorkingHoursSchema = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject(
        Object.fromEntries(
          WEEKDAYS.map((day) => [
            day,
            doc(
              z.array(WorkingPeriod).check(z.maxLength(12)),
              `${DAY_NAMES[day]}'s periods (at most 12; empty: not working).`,
            ),
          ]),
        ) as Record<WeekdayKey, z.ZodMiniArray<typeof WorkingPeriod>>,
      ),
    ),
    'Practice-local HH:MM periods per weekday (mon..sun); "24:00" is the next midnight. A PATCH replaces only the days it names.',
    {
      mon: [{ start: '09:00', end: '17:00' }],
      tue: [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '17:00' },
      ],
    },
  ),
);

export const TimeOffEntry = /* @__PURE__ */ schema(() =>
  doc(
    z
      .strictObject({
        start: doc(DateTime, 'Start, with an offset.', '2026-12-24T00:00:00-05:00'),
        end: doc(DateTime, 'End, with an offset; after start.', '2026-12-27T00:00:00-05:00'),
        reason: doc(z.optional(Text(500)), 'Why (at most 500 characters).', 'Holiday'),
      })
      .check(
        z.refine((entry) => Date.parse(entry.start) < Date.parse(entry.end), {
          message: 'end must be after start',
          path: ['end'],
        }),
      ),
    'Time off; `end` must be after `start`.',
  ),
);

const ProviderShape = /* @__PURE__ */ schema(() => ({
  first_name: doc(Name, 'First name (1-200 characters).', 'Ava'),
  last_name: doc(Name, 'Last name (1-200 characters).', 'Reyes'),
  email: doc(z.nullable(Email), 'Work email.', 'ava.reyes@glow.example'),
  title: doc(z.nullable(Text(200)), 'Job title.', 'Nurse Injector, RN'),
  working_hours: WorkingHoursSchema,
  time_off: doc(
    z.array(TimeOffEntry).check(z.maxLength(500)),
    'Time off (at most 500 entries). Replaced as a whole on PATCH. Output in UTC.',
  ),
  active: doc(z.boolean(), `Whether the provider takes bookings. ${ACTIVE}`, true),
}));

const ProviderBodies = /* @__PURE__ */ schema(() =>
  bodiesOf(ProviderShape, {
    email: z.optional(ProviderShape.email),
    title: z.optional(ProviderShape.title),
    working_hours: z.optional(ProviderShape.working_hours),
    time_off: z.optional(ProviderShape.time_off),
    active: z._default(ProviderShape.active, true),
  }),
);
export const CreateProviderBody = /* @__PURE__ */ schema(() => ProviderBodies.create);
export const UpdateProviderBody = /* @__PURE__ */ schema(() => ProviderBodies.update);
export type CreateProviderInput = z.output<typeof CreateProviderBody>;
export type UpdateProviderInput = z.output<typeof UpdateProviderBody>;

const OutPeriod = /* @__PURE__ */ schema(() =>
  doc(
    z.object({ start: doc(z.string(), 'Start, HH:MM.', '09:00'), end: doc(z.string(), 'End, HH:MM.', '17:00') }),
    'A working period, practice-local.',
  ),
);

export const Provider = /* @__PURE__ */ schema(() =>
  meta(
    resource('provider', {
      first_name: doc(z.string(), 'First name.', 'Ava'),
      last_name: doc(z.string(), 'Last name.', 'Reyes'),
      full_name: doc(z.string(), 'first_name + " " + last_name (read-only).', 'Ava Reyes'),
      email: doc(z.nullable(z.string()), 'Work email.', 'ava.reyes@glow.example'),
      title: doc(z.nullable(z.string()), 'Job title.', 'Nurse Injector, RN'),
      working_hours: doc(
        z.object(
          Object.fromEntries(
            WEEKDAYS.map((day) => [
              day,
              doc(z._default(z.array(OutPeriod), []), `${DAY_NAMES[day]}'s periods, by start (empty: not working).`),
            ]),
          ) as Record<WeekdayKey, z.ZodMiniDefault<z.ZodMiniArray<typeof OutPeriod>>>,
        ),
        'Practice-local working periods per weekday; every weekday is present.',
      ),
      time_off: doc(
        z.array(
          doc(
            z.object({
              start: Instant('Start (UTC).', '2026-12-24T05:00:00.000Z'),
              end: Instant('End (UTC).', '2026-12-27T05:00:00.000Z'),
              reason: doc(z._default(z.nullable(z.string()), null), 'Why, if given.', 'Holiday'),
            }),
            'Time off.',
          ),
        ),
        'Time off, by start.',
      ),
      active: doc(z.boolean(), `Whether the provider takes bookings. ${ACTIVE}`, true),
    }),
    { description: 'A provider: someone who performs services.', id: 'Provider' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Rooms and equipment (same shape)

const FacilityShape = /* @__PURE__ */ schema(() => ({
  name: doc(Name, 'Name (1-200 characters).', 'Laser Suite'),
  description: doc(
    z.nullable(Text(2000)),
    'Description (at most 2000 characters).',
    'Laser and light-based treatments',
  ),
  active: doc(z.boolean(), `Whether it can be booked. ${ACTIVE}`, true),
}));

const FacilityBodies = /* @__PURE__ */ schema(() =>
  bodiesOf(FacilityShape, {
    description: z.optional(FacilityShape.description),
    active: z._default(FacilityShape.active, true),
  }),
);
export const CreateFacilityBody = /* @__PURE__ */ schema(() => FacilityBodies.create);
export const UpdateFacilityBody = /* @__PURE__ */ schema(() => FacilityBodies.update);
export type CreateFacilityInput = z.output<typeof CreateFacilityBody>;
export type UpdateFacilityInput = z.output<typeof UpdateFacilityBody>;

export const Facility = /* @__PURE__ */ schema(() =>
  meta(
    resource('room', {
      name: doc(z.string(), 'Name.', 'Laser Suite'),
      description: doc(z.nullable(z.string()), 'Description.', 'Laser and light-based treatments'),
      active: doc(z.boolean(), `Whether it can be booked. ${ACTIVE}`, true),
    }),
    { description: 'A room or a piece of equipment: booked with appointments, never double-booked.', id: 'Facility' },
  ),
);

export const CreateRoomBody = CreateFacilityBody;
export const UpdateRoomBody = UpdateFacilityBody;
export const Room = Facility;
export const CreateEquipmentBody = CreateFacilityBody;
export const UpdateEquipmentBody = UpdateFacilityBody;
export const Equipment = Facility;

// ---------------------------------------------------------------------------------------------
// Services

const BufferMinutes = /* @__PURE__ */ schema(() => z.number().check(z.int(), z.gte(0), z.lte(MAX_BUFFER_MINUTES)));

const ServiceShape = /* @__PURE__ */ schema(() => ({
  name: doc(Name, 'Name (1-200 characters).', 'Botox'),
  description: doc(
    z.nullable(Text(2000)),
    'Description (at most 2000 characters).',
    'Neuromodulator for dynamic wrinkles, per area',
  ),
  category: doc(z.nullable(Text(100).check(z.minLength(1))), 'Category, for grouping and `?category=`.', 'injectables'),
  price_cents: doc(
    z.number().check(z.int(), z.gte(0), z.lte(100_000_000)),
    "Price in the practice's currency, minor units.",
    45000,
  ),
  duration_minutes: doc(z.number().check(z.int(), z.gte(5), z.lte(480)), 'Usual length in minutes (5-480).', 30),
  buffer_before_minutes: doc(
    BufferMinutes,
    'Preparation before the client arrives (0-240, default 0): held with the booking, may reach before opening.',
    0,
  ),
  buffer_after_minutes: doc(
    BufferMinutes,
    'Cleanup after the client leaves (0-240, default 0): held with the booking, may reach after closing.',
    15,
  ),
  active: doc(z.boolean(), 'Whether it can be booked (booking an inactive service is 400).', true),
  provider_ids: doc(
    z.array(IdOf('provider', 'A provider id.')).check(z.maxLength(200)),
    'Providers certified for this service (at most 200); each must exist (else 404 PROVIDER_NOT_FOUND).',
    [EXAMPLE_ID.provider],
  ),
  deposit: Deposit,
  required_form_template_ids: doc(
    z.array(IdOf('formTemplate', 'A form template id.')).check(z.maxLength(20)),
    "Form templates a client must have submitted (unexpired at the start) before an appointment of this service (at most 20; each must exist, else 404 FORM_TEMPLATE_NOT_FOUND): the appointment detail's `forms`.",
    [EXAMPLE_ID.formTemplate],
  ),
}));

const ServiceBodies = /* @__PURE__ */ schema(() =>
  bodiesOf(ServiceShape, {
    description: z.optional(ServiceShape.description),
    category: z.optional(ServiceShape.category),
    buffer_before_minutes: z._default(ServiceShape.buffer_before_minutes, 0),
    buffer_after_minutes: z._default(ServiceShape.buffer_after_minutes, 0),
    active: z._default(ServiceShape.active, true),
    provider_ids: z.optional(ServiceShape.provider_ids),
    deposit: z._default(ServiceShape.deposit, { ...NO_DEPOSIT }),
    required_form_template_ids: z.optional(ServiceShape.required_form_template_ids),
  }),
);
export const CreateServiceBody = /* @__PURE__ */ schema(() => ServiceBodies.create);
export const UpdateServiceBody = /* @__PURE__ */ schema(() => ServiceBodies.update);
export const AssignProviderBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({ provider_id: IdOf('provider', 'The provider to certify (else 404 PROVIDER_NOT_FOUND).') }),
    'The provider to certify.',
  ),
);
/** `deposit` may be left out by callers below HTTP (the body's default). */
export type CreateServiceInput = Omit<z.output<typeof CreateServiceBody>, 'deposit'> & {
  deposit?: z.output<typeof CreateServiceBody>['deposit'];
};
export type UpdateServiceInput = z.output<typeof UpdateServiceBody>;

export const Service = /* @__PURE__ */ schema(() =>
  meta(
    resource('service', {
      name: doc(z.string(), 'Name.', 'Botox'),
      description: doc(z.nullable(z.string()), 'Description.', 'Neuromodulator for dynamic wrinkles, per area'),
      category: doc(z.nullable(z.string()), 'Category.', 'injectables'),
      price_cents: doc(z.number().check(z.int()), "Price in the practice's currency, minor units.", 45000),
      duration_minutes: doc(z.number().check(z.int()), 'Usual length in minutes.', 30),
      buffer_before_minutes: doc(
        z.number().check(z.int()),
        'Minutes held before each booking (preparation); a change moves nothing already booked.',
        0,
      ),
      buffer_after_minutes: doc(
        z.number().check(z.int()),
        'Minutes held after each booking (cleanup); a change moves nothing already booked.',
        15,
      ),
      active: doc(z.boolean(), 'Whether it can be booked.', true),
      provider_ids: doc(z.array(OutId('provider', 'A provider id.')), 'Providers certified for it (certification).', [
        EXAMPLE_ID.provider,
      ]),
      deposit: Deposit,
      required_form_template_ids: doc(
        z.array(OutId('formTemplate', 'A form template id.')),
        'Form templates required before its appointments (section 14).',
        [],
      ),
    }),
    {
      description: 'A service of the catalog: a treatment with its price, duration and certified providers.',
      id: 'Service',
    },
  ),
);

export const ServiceListQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    category: doc(
      z.optional(z.string().check(z.maxLength(100))),
      'Only services of this category (exact).',
      'injectables',
    ),
  }),
);

// ---------------------------------------------------------------------------------------------
// Clients

import { MEMBERSHIP_STATUSES } from '../domain/records/common';

export { MEMBERSHIP_STATUSES };
export const MembershipStatus = /* @__PURE__ */ schema(() =>
  doc(z.enum(MEMBERSHIP_STATUSES), 'Membership status.', 'active'),
);

/** The address parts, each from `part(maxLength)`: one list for input and output. */
const addressOf = <T extends z.ZodMiniType>(part: (max: number) => T) => ({
  line1: doc(part(200), 'Street address.', '100 Main St'),
  line2: doc(part(200), 'Apartment, suite, floor.', 'Suite 4'),
  city: doc(part(100), 'City.', 'New York'),
  region: doc(part(100), 'State, province or region.', 'NY'),
  postal_code: doc(part(20), 'Postal code.', '10001'),
  country: doc(part(100), 'Country.', 'US'),
});

export const AddressInput = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(z.strictObject(addressOf((max) => z.nullable(Text(max))))),
    'All parts optional. A PATCH replaces the whole address; null clears it.',
  ),
);

/**
 * In the past. JSON Schema cannot compare with today, so the document states the rule as the
 * years 1900 to last year (a little narrower than the server, never wider).
 */
const DateOfBirth = /* @__PURE__ */ schema(() =>
  meta(
    LocalDate.check(
      z.refine((date) => date >= '1900-01-01' && Date.parse(date) <= Date.now() + 86_400_000, 'must be a past date'),
    ),
    {
      description: 'Date of birth (YYYY-MM-DD), in the past.',
      examples: ['1988-04-12'],
      allOf: [{ pattern: yearsPattern(1900, new Date().getUTCFullYear() - 1) }],
    },
  ),
);

const ClientShape = /* @__PURE__ */ schema(() => ({
  first_name: doc(Name, 'First name (1-200 characters).', 'Olivia'),
  last_name: doc(Name, 'Last name (1-200 characters).', 'Hart'),
  email: doc(z.nullable(Email), 'Email.', 'olivia.hart@example.com'),
  phone: doc(z.nullable(Phone), 'Phone: digits, spaces and + ( ) . - x.', '+1 212 555 0142'),
  date_of_birth: z.nullable(DateOfBirth),
  address: z.nullable(AddressInput),
  membership_status: MembershipStatus,
  membership_tier: doc(z.nullable(Text(100)), 'Membership tier name.', 'Glow Gold'),
  tags: doc(
    z
      .array(doc(z.string().check(z.trim(), z.minLength(1), z.maxLength(50)), 'A tag (1-50 characters).', 'vip'))
      .check(z.maxLength(50)),
    'Free-form tags (at most 50).',
    ['vip'],
  ),
  notes: doc(z.nullable(Text(5000)), 'Staff notes (at most 5000 characters).', 'Prefers afternoon appointments.'),
}));

const ClientBodies = /* @__PURE__ */ schema(() =>
  bodiesOf(ClientShape, {
    email: z.optional(ClientShape.email),
    phone: z.optional(ClientShape.phone),
    date_of_birth: z.optional(ClientShape.date_of_birth),
    address: z.optional(ClientShape.address),
    membership_status: doc(
      z._default(ClientShape.membership_status, 'none'),
      'Membership status (default none).',
      'active',
    ),
    membership_tier: z.optional(ClientShape.membership_tier),
    tags: z.optional(ClientShape.tags),
    notes: z.optional(ClientShape.notes),
  }),
);
export const CreateClientBody = /* @__PURE__ */ schema(() => ClientBodies.create);
export const UpdateClientBody = /* @__PURE__ */ schema(() => ClientBodies.update);
export type CreateClientInput = z.output<typeof CreateClientBody>;
export type UpdateClientInput = z.output<typeof UpdateClientBody>;

export const Address = /* @__PURE__ */ schema(() =>
  doc(z.object(addressOf(() => z._default(z.nullable(z.string()), null))), 'Postal address; absent parts are null.'),
);
export type Address = z.output<typeof Address>;

export const Client = /* @__PURE__ */ schema(() =>
  meta(
    resource('client', {
      first_name: doc(z.string(), 'First name.', 'Olivia'),
      last_name: doc(z.string(), 'Last name.', 'Hart'),
      email: doc(z.nullable(z.string()), 'Email.', 'olivia.hart@example.com'),
      phone: doc(z.nullable(z.string()), 'Phone.', '+1 212 555 0142'),
      date_of_birth: doc(z.nullable(z.string()), 'Date of birth (YYYY-MM-DD).', '1988-04-12'),
      address: z.nullable(Address),
      membership_status: doc(
        MembershipStatus,
        'Membership status. While `membership_plan_id` is set it follows that plan (read-only: a PATCH is 409 MEMBERSHIP_MANAGED_BY_PLAN).',
        'active',
      ),
      membership_tier: doc(
        z.nullable(z.string()),
        "Membership tier name; while `membership_plan_id` is set, that plan's name (read-only then).",
        'Glow Gold',
      ),
      membership_plan_id: z.nullable(
        OutId(
          'clientPlan',
          "The active or paused membership plan (`/v1/client-plans/{id}`) the membership fields follow, the most recently sold one; null when they are the practice's to write (read-only).",
        ),
      ),
      tags: doc(z.array(doc(z.string(), 'A tag.', 'vip')), 'Free-form tags.', ['vip']),
      notes: doc(z.nullable(z.string()), 'Staff notes.', 'Prefers afternoon appointments.'),
      health_score: doc(
        z.number().check(z.int(), z.gte(0), z.lte(100)),
        `0-100 (read-only). ${HEALTH_SCORE_FORMULA}`,
        82,
      ),
      last_visit_at: z.nullable(
        Instant('Scheduled time of the last completed appointment (read-only).', '2026-11-02T15:00:00.000Z'),
      ),
      total_spent_cents: doc(z.number().check(z.int()), 'Sum of recorded payments, minor units (read-only).', 127500),
      visit_count: doc(z.number().check(z.int()), 'Completed appointments (read-only).', 4),
    }),
    { description: 'A client of the practice, with visit and spend statistics.', id: 'Client' },
  ),
);

export type ClientView = z.output<typeof Client>;

export const ClientListQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    q: doc(
      meta(z.optional(z.string().check(z.maxLength(500))), { examples: ['oli'] }),
      'Prefix of first name, last name, full name ("first last"), email or phone digits; case- and accent-insensitive. ' +
        'A query of only digits, spaces and + ( ) . - with at least 3 digits matches phone digits (555-01 = 55501). ' +
        'Results are ordered by the matched term; `total` counts distinct matching clients.',
    ),
    membership_status: doc(z.optional(MembershipStatus), 'Only clients with this membership status.', 'active'),
    consent: ConsentFilter,
  }),
);
