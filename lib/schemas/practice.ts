import * as z from 'zod';
import { API_ACCESS } from '../domain/records';
import { isValidTimeZone } from '../domain/time';
import { Timestamps } from './common';

export const ApiAccess = z.enum(API_ACCESS);
export const TimeZone = z.string().refine(isValidTimeZone, 'expected an IANA time zone such as America/New_York');
export const Currency = z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD');

export const Practice = z.object({
  id: z.string(),
  name: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  reminder_lead_minutes: z.number().int(),
  api_access: ApiAccess,
  ...Timestamps,
});
export type Practice = z.infer<typeof Practice>;

export const UpdatePracticeBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    time_zone: TimeZone,
    currency: Currency,
    reminder_lead_minutes: z.number().int().min(0).max(60 * 24 * 14),
    api_access: ApiAccess,
  })
  .partial()
  .strict();
