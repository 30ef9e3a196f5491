import * as z from 'zod';

import { isEntityId } from '../domain/ids';

export { isEntityId };
/** The nil UUID: never assigned (ids are random v4), so it is absent everywhere. */
export const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Ids are server-made UUIDs. A malformed one (any length, any characters) becomes the nil UUID,
 * so it answers the resource's 404 exactly like an unknown id, and never reaches a key.
 */
export const Id = z
  .string()
  .describe('A UUID assigned by the server')
  .transform((value) => (isEntityId(value.toLowerCase()) ? value.toLowerCase() : NO_SUCH_ID));
export const IdParams = z.object({ id: Id });

/** Years the API takes: wide enough for any booking or birth date, far from the format's edges. */
const yearInRange = (value: string) => {
  const year = Number(value.slice(0, 4));
  return year >= 1900 && year <= 2999;
};
const YEARS = 'the year must be between 1900 and 2999';

/** ISO 8601 with an offset (`Z` or `±hh:mm`); a date-time without one is a VALIDATION_ERROR. */
export const DateTime = z.iso.datetime({ offset: true }).refine(yearInRange, YEARS);
/** A practice-local calendar date. */
export const LocalDate = z.iso.date().refine(yearInRange, YEARS);
/** A practice-local wall-clock time. */
export const LocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'expected HH:MM');

export const Limit = z.coerce.number().int().min(1).max(100).default(50);
export const PageQuery = z.object({ limit: Limit, cursor: z.string().max(2048).optional() });

export const Pagination = z.object({ total: z.number().int(), next_cursor: z.string().nullable() });

export const Timestamps = {
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
