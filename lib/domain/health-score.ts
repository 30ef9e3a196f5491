/**
 * Client health score (API reference, other resources): 0..100, from visit recency, frequency, spend and no-shows.
 *
 *   score = round(clamp(recency + frequency + spend - penalty, 0, 100))
 *   recency   = 40 for a last visit at most 30 days ago, falling linearly to 0 at 365 days;
 *               0 without any visit (a visit dated after `now` counts as today)
 *   frequency = 30 * min(visit_count / 10, 1)
 *   spend     = 30 * min(total_spent_cents / 500_000, 1)   (full marks at 5,000.00)
 *   penalty   = 15 per no-show
 *
 * A new client with no history scores 0. The score depends on the time, so it is computed at
 * read time from the stored statistics, never stored.
 */

export const RECENCY_POINTS = 40;
export const FREQUENCY_POINTS = 30;
export const SPEND_POINTS = 30;
/** Visits within this many days earn full recency points. */
export const RECENT_DAYS = 30;
/** Visits this many days ago or older earn no recency points. */
export const STALE_DAYS = 365;
/** Visits for full frequency points. */
export const FULL_VISITS = 10;
/** Lifetime spend (minor units) for full spend points. */
export const FULL_SPEND_CENTS = 500_000;
export const NO_SHOW_PENALTY = 15;

/** The formula in words, for the OpenAPI description of `health_score`. */
export const HEALTH_SCORE_FORMULA =
  `health_score = round(clamp(recency + frequency + spend - penalty, 0, 100)), computed at read time. ` +
  `recency: ${RECENCY_POINTS} points for a last visit (completed appointment) at most ${RECENT_DAYS} days ago, falling linearly to 0 at ${STALE_DAYS} days, 0 without visits; ` +
  `frequency: ${FREQUENCY_POINTS} * min(visit_count / ${FULL_VISITS}, 1); ` +
  `spend: ${SPEND_POINTS} * min(total_spent_cents / ${FULL_SPEND_CENTS}, 1); ` +
  `penalty: ${NO_SHOW_PENALTY} points per no-show. A new client scores 0.`;

export interface HealthInputs {
  /** ISO instant of the last completed visit, or null. */
  lastVisitAt: string | null | undefined;
  visitCount: number | null | undefined;
  totalSpentCents: number | null | undefined;
  noShowCount: number | null | undefined;
  now: Date;
}

const DAY_MS = 86_400_000;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Missing, negative or non-finite counts count as 0. */
const count = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : 0;

function recencyPoints(lastVisitAt: string | null | undefined, now: Date): number {
  const visited = lastVisitAt ? Date.parse(lastVisitAt) : Number.NaN;
  if (!Number.isFinite(visited)) return 0;
  const days = Math.max(0, (now.getTime() - visited) / DAY_MS);
  return RECENCY_POINTS * clamp((STALE_DAYS - days) / (STALE_DAYS - RECENT_DAYS), 0, 1);
}

export function healthScore(input: HealthInputs): number {
  const frequency = FREQUENCY_POINTS * Math.min(count(input.visitCount) / FULL_VISITS, 1);
  const spend = SPEND_POINTS * Math.min(count(input.totalSpentCents) / FULL_SPEND_CENTS, 1);
  const penalty = NO_SHOW_PENALTY * count(input.noShowCount);
  return Math.round(clamp(recencyPoints(input.lastVisitAt, input.now) + frequency + spend - penalty, 0, 100));
}
