import { z } from 'zod';
import { REPORT_GROUPS } from '../domain/report-periods';
import { LocalDate } from './common';

/** Reports (contract 6): read only, over practice-local dates. */

const RANGE = {
  from: LocalDate.optional().describe('Practice-local date, inclusive. Without from and to: the last 30 days (today included); with one of them: 30 days from it. At most 2 years (731 days).'),
  to: LocalDate.optional().describe('Practice-local date, inclusive.'),
};

/** Unknown parameters are refused (a typo never silently changes a report). */
const params = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown parameter: ${issue.keys.join(', ')}` : undefined) });

export const ReportQuery = params(RANGE);
export type ReportQuery = z.output<typeof ReportQuery>;

export const RevenueReportQuery = params({
  ...RANGE,
  group_by: z.enum(REPORT_GROUPS).default('day').describe('Periods of the series, in the practice zone: `day` (YYYY-MM-DD), ISO `week` (YYYY-Www) or `month` (YYYY-MM).'),
});
export type RevenueReportQuery = z.output<typeof RevenueReportQuery>;

const Cents = z.number().int();
const Count = z.number().int();

export const RevenueReport = z.object({
  from: z.string().describe('The range reported, practice-local dates (inclusive).'),
  to: z.string(),
  currency: z.string(),
  group_by: z.enum(REPORT_GROUPS),
  total_cents: Cents.describe('service_cents + retail_cents.'),
  service_cents: Cents.describe('price_cents of the appointments completed, by the local date of scheduled_at.'),
  retail_cents: Cents.describe('Retail sales: -delta x unit_price_cents of the sale stock adjustments, by local date.'),
  collected_cents: Cents.describe('Payments recorded, by the local date of created_at.'),
  series: z.array(
    z.object({
      period: z.string().describe('YYYY-MM-DD, YYYY-Www (ISO week) or YYYY-MM; every period touching the range, empty ones included. Edge periods count only the days in the range.'),
      service_cents: Cents,
      retail_cents: Cents,
      collected_cents: Cents,
      appointments_completed: Count,
    }),
  ),
});

export const ProviderPerformance = z
  .array(
    z.object({
      provider: z.object({ id: z.string(), full_name: z.string().nullable() }),
      appointments_completed: Count,
      revenue_cents: Cents,
      average_ticket_cents: Cents.describe('revenue_cents / appointments_completed, rounded; 0 without completions.'),
      cancellations: Count,
      no_shows: Count,
      booked_minutes: Count.describe('duration_minutes of the completed appointments.'),
      working_minutes: Count.describe("From the provider's current working hours and time off, in the practice zone (DST-exact)."),
      utilization: z.number().nullable().describe('booked_minutes / working_minutes, 4 decimals; null when the provider had no working time in the range.'),
    }),
  )
  .describe('Every provider of the practice, plus deleted ones with activity in the range; highest revenue first.');

export const ClientRetention = z.object({
  from: z.string(),
  to: z.string(),
  clients_seen: Count.describe('Distinct clients with a completed appointment in the range.'),
  new_clients: Count.describe('Clients whose first completed appointment is in the range.'),
  returning_clients: Count.describe('Clients seen in the range who also completed one before `from`.'),
  retention_rate: z.number().describe('returning_clients / clients_seen, 4 decimals; 0 when nobody was seen.'),
});

export const ServicePopularity = z
  .array(
    z.object({
      service: z.object({ id: z.string(), name: z.string().nullable() }),
      bookings: Count.describe('Appointments scheduled in the range, whatever their status.'),
      completed: Count,
      cancelled: Count,
      revenue_cents: Cents,
    }),
  )
  .describe('Every service of the catalog; most booked first, then most completed.');
