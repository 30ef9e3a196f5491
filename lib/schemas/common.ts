import { z } from 'zod';

/** Ids are server-made UUIDs, but an unknown or malformed id is a 404 of its resource, not a 400. */
export const Id = z.string().min(1).max(100);
export const IdParams = z.object({ id: Id });

/** ISO 8601 with an offset (`Z` or `±hh:mm`); a date-time without one is a VALIDATION_ERROR. */
export const DateTime = z.iso.datetime({ offset: true });
/** A practice-local calendar date. */
export const LocalDate = z.iso.date();
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
