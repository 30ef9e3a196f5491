import { listAudit } from '../db/audit';
import { pageRequest } from '../crypto/cursor';
import { readPractice } from './practice';
import { localDayBounds } from '../domain/time';
import { AppError } from '../errors';

const DAY_MS = 86_400_000;
const isLocalDate = (value?: string): value is string => value !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** Newest first within [from, to]; bounds are date-times, or practice-local dates; default the last 30 days. */
export async function auditLog(
  medspaId: string,
  query: { from?: string; to?: string; limit: number; cursor?: string },
  now: Date,
) {
  const zone = isLocalDate(query.from) || isLocalDate(query.to) ? (await readPractice(medspaId)).time_zone : 'UTC';
  const bound = (value: string | undefined, side: 'start' | 'end') =>
    value === undefined
      ? undefined
      : isLocalDate(value)
        ? localDayBounds(value, zone)[side]
        : new Date(value).toISOString();
  const to = bound(query.to, 'end') ?? now.toISOString();
  const from = bound(query.from, 'start') ?? new Date(Date.parse(to) - 30 * DAY_MS).toISOString();
  if (from > to)
    throw new AppError('VALIDATION_ERROR', '`from` is after `to`', {
      details: [{ path: 'from', message: 'must not be after to' }],
    });
  return listAudit(medspaId, { from, to }, pageRequest(medspaId, 'audit-log', query));
}
