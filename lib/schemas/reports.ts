import * as z from './zod';
import { REPORT_GROUPS } from '../domain/report-periods';
import { doc, EXAMPLE_ID, LocalDate, schema } from './common';

/** Reports (API reference, reports): read only, over practice-local dates. */

const RANGE = /* @__PURE__ */ schema(() => ({
  from: doc(
    z.optional(LocalDate),
    'Practice-local date, inclusive. Without from and to: the last 30 days (today included); with one of them: 30 days from it. At most 2 years (731 days).',
  ),
  to: doc(z.optional(LocalDate), 'Practice-local date, inclusive.'),
}));

/** Unknown parameters are refused (a typo never silently changes a report). */
const params = <S extends z.core.$ZodShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown parameter: ${issue.keys.join(', ')}` : undefined),
  });

export const ReportQuery = /* @__PURE__ */ schema(() => params(RANGE));
export type ReportQuery = z.output<typeof ReportQuery>;

export const RevenueReportQuery = /* @__PURE__ */ schema(() =>
  params({
    ...RANGE,
    group_by: doc(
      z._default(z.enum(REPORT_GROUPS), 'day'),
      'Periods of the series, in the practice zone: `day` (YYYY-MM-DD), ISO `week` (YYYY-Www) or `month` (YYYY-MM).',
    ),
  }),
);
export type RevenueReportQuery = z.output<typeof RevenueReportQuery>;

const cents = (description: string, example: number) => doc(z.number().check(z.int()), description, example);
const count = (description: string, example: number) => doc(z.number().check(z.int()), description, example);
const day = (description: string, example: string) => doc(z.string(), description, example);

export const RevenueReport = /* @__PURE__ */ schema(() =>
  z.object({
    from: day('First practice-local date of the range (inclusive).', '2026-11-01'),
    to: day('Last practice-local date of the range (inclusive).', '2026-11-30'),
    currency: doc(z.string(), "The practice's currency (ISO 4217).", 'USD'),
    group_by: doc(z.enum(REPORT_GROUPS), 'The periods of `series`.', 'week'),
    total_cents: cents('service_cents + retail_cents + plans_cents.', 1_407_500),
    service_cents: cents('price_cents of the appointments completed, by the local date of scheduled_at.', 1_150_000),
    retail_cents: cents(
      'Retail sales: -delta x unit_price_cents of the sale stock adjustments, by local date.',
      137_500,
    ),
    plans_cents: cents(
      'Packages and memberships sold: the price_cents of each client plan as sold, by the local date of the sale, whether or not a payment came with it (a payment is collected_cents). A plan-booked appointment is service revenue 0 when completed: its value is counted here, at the sale.',
      120_000,
    ),
    collected_cents: cents('Payments recorded, by the local date of created_at.', 1_201_000),
    series: doc(
      z.array(
        z.object({
          period: doc(
            z.string(),
            'YYYY-MM-DD, YYYY-Www (ISO week) or YYYY-MM; every period touching the range, empty ones included. Edge periods count only the days in the range.',
            '2026-W45',
          ),
          service_cents: cents('Service revenue of the period.', 287_500),
          retail_cents: cents('Retail revenue of the period.', 34_000),
          plans_cents: cents('Plans sold in the period.', 60_000),
          collected_cents: cents('Payments collected in the period.', 300_000),
          appointments_completed: count('Appointments completed in the period.', 11),
        }),
      ),
      'One entry per period, oldest first.',
    ),
  }),
);

const ProviderRef = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      id: doc(z.string(), 'The provider id.', EXAMPLE_ID.provider),
      full_name: doc(z.nullable(z.string()), 'The provider as named now.', 'Maya Chen'),
    }),
    'The provider.',
  ),
);
const ServiceRef = /* @__PURE__ */ schema(() =>
  doc(
    z.object({
      id: doc(z.string(), 'The service id.', EXAMPLE_ID.service),
      name: doc(z.nullable(z.string()), 'The service as named now.', 'Botox, 20 units'),
    }),
    'The service.',
  ),
);

export const ProviderPerformance = /* @__PURE__ */ schema(() =>
  doc(
    z.array(
      z.object({
        provider: ProviderRef,
        appointments_completed: count('Appointments completed in the range.', 42),
        revenue_cents: cents('price_cents of those appointments.', 1_050_000),
        average_ticket_cents: cents('revenue_cents / appointments_completed, rounded; 0 without completions.', 25_000),
        cancellations: count('Appointments of the range cancelled.', 3),
        no_shows: count('Appointments of the range marked no-show.', 1),
        booked_minutes: count('duration_minutes of the completed appointments.', 2_520),
        working_minutes: count(
          "From the provider's current working hours and time off, in the practice zone (DST-exact).",
          9_600,
        ),
        utilization: doc(
          z.nullable(z.number()),
          'booked_minutes / working_minutes, 4 decimals; null when the provider had no working time in the range.',
          0.2625,
        ),
      }),
    ),
    'Every provider of the practice, plus deleted ones with activity in the range; highest revenue first.',
  ),
);

export const ClientRetention = /* @__PURE__ */ schema(() =>
  z.object({
    from: day('First practice-local date of the range (inclusive).', '2026-11-01'),
    to: day('Last practice-local date of the range (inclusive).', '2026-11-30'),
    clients_seen: count('Distinct clients with a completed appointment in the range.', 120),
    new_clients: count('Clients whose first completed appointment is in the range.', 30),
    returning_clients: count('Clients seen in the range who also completed one before `from`.', 90),
    retention_rate: doc(z.number(), 'returning_clients / clients_seen, 4 decimals; 0 when nobody was seen.', 0.75),
  }),
);

export const ServicePopularity = /* @__PURE__ */ schema(() =>
  doc(
    z.array(
      z.object({
        service: ServiceRef,
        bookings: count('Appointments scheduled in the range, whatever their status.', 64),
        completed: count('Of those, completed.', 51),
        cancelled: count('Of those, cancelled.', 6),
        revenue_cents: cents('price_cents of the completed ones.', 1_275_000),
      }),
    ),
    'Every service of the catalog; most booked first, then most completed.',
  ),
);
