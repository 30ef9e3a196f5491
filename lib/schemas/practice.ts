import * as z from 'zod';
import { API_ACCESS } from '../domain/records/common';
import { isValidTimeZone } from '../domain/time';
import { doc, OutId, Timestamps } from './common';

export const ApiAccess = doc(z.enum(API_ACCESS), 'enabled, or waitlisted (early access: only the token exchange and GET /v1/practice answer).', 'enabled');

/**
 * The zone names the runtime knows (plus UTC), for the document only. Computed when the document
 * reads it: checking ~400 zones builds a formatter each, 50 ms that every cold start would pay.
 */
const knownZones = () => [...new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])].filter(isValidTimeZone).sort();

/** An IANA time zone; the document lists the canonical names (one component, `TimeZone`). */
export const TimeZone = z
  .string()
  .refine(isValidTimeZone, 'expected an IANA time zone such as America/New_York')
  .meta({
    id: 'TimeZone',
    description: 'An IANA time zone name.',
    examples: ['America/New_York'],
    get enum() {
      return knownZones();
    },
  });
export const Currency = doc(z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD'), 'ISO 4217 currency code.', 'USD');

export const Practice = z
  .object({
    id: OutId('practice', 'The practice id (`medspa_id` elsewhere).'),
    name: doc(z.string(), 'Name.', 'Glow Aesthetics'),
    time_zone: doc(z.string(), 'IANA time zone: plain dates and working hours are local to it.', 'America/New_York'),
    currency: doc(z.string(), 'ISO 4217 currency of every *_cents amount.', 'USD'),
    reminder_lead_minutes: doc(z.number().int(), 'How long before an appointment the appointment.reminder event goes out.', 1440),
    api_access: ApiAccess,
    ...Timestamps,
  })
  .describe('The practice (med-spa) the credential belongs to.').meta({ id: 'Practice' });
export type Practice = z.infer<typeof Practice>;

export const UpdatePracticeBody = z
  .object({
    name: doc(z.string().trim().min(1).max(200), 'Name (1-200 characters).', 'Glow Aesthetics'),
    time_zone: TimeZone,
    currency: Currency,
    reminder_lead_minutes: doc(z.number().int().min(0).max(60 * 24 * 14), 'Reminder lead time in minutes (0-20160); applies to appointments booked or moved afterwards.', 1440),
    api_access: ApiAccess,
  })
  .partial()
  .strict()
  .describe('Any subset of the settings.');
