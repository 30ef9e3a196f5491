import { describe, expect, it } from 'vitest';
import { HEALTH_SCORE_FORMULA, healthScore, type HealthInputs } from '../../lib/domain/health-score';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const score = (overrides: Partial<HealthInputs>) =>
  healthScore({ lastVisitAt: null, visitCount: 0, totalSpentCents: 0, noShowCount: 0, now: NOW, ...overrides });

describe('healthScore', () => {
  it('is 0 for a new client with no history, and for missing statistics', () => {
    expect(score({})).toBe(0);
    expect(
      healthScore({
        lastVisitAt: undefined,
        visitCount: undefined,
        totalSpentCents: null,
        noShowCount: undefined,
        now: NOW,
      }),
    ).toBe(0);
  });

  it('clamps extremely high values at 100', () => {
    expect(score({ lastVisitAt: daysAgo(1), visitCount: 10_000, totalSpentCents: 1e12 })).toBe(100);
    expect(
      score({ lastVisitAt: daysAgo(0), visitCount: Number.MAX_SAFE_INTEGER, totalSpentCents: Number.MAX_SAFE_INTEGER }),
    ).toBe(100);
  });

  it('clamps at 0 with many no-shows, whatever else there is', () => {
    expect(score({ noShowCount: 50 })).toBe(0);
    expect(score({ lastVisitAt: daysAgo(1), visitCount: 10, totalSpentCents: 500_000, noShowCount: 7 })).toBe(0);
  });

  it('scores recent visits and spend above only no-shows', () => {
    const engaged = score({ lastVisitAt: daysAgo(10), visitCount: 3, totalSpentCents: 60_000 });
    const absent = score({ noShowCount: 2 });
    expect(engaged).toBeGreaterThan(absent);
    expect(engaged).toBeGreaterThan(0);
  });

  it('never rises as the last visit gets older, and is full within 30 days and nothing after a year', () => {
    const base = { visitCount: 2, totalSpentCents: 20_000 };
    const scores = [0, 15, 30, 31, 60, 120, 200, 300, 364, 365, 366, 1000].map((days) =>
      score({ ...base, lastVisitAt: daysAgo(days) }),
    );
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
    expect(scores[0]).toBe(scores[2]);
    expect(scores[0] - scores[scores.length - 1]).toBe(40);
    expect(score({ ...base, lastVisitAt: daysAgo(365) })).toBe(score({ ...base, lastVisitAt: null }));
  });

  it('counts a visit dated after now as today', () => {
    expect(score({ visitCount: 1, lastVisitAt: new Date(NOW.getTime() + 86_400_000).toISOString() })).toBe(
      score({ visitCount: 1, lastVisitAt: daysAgo(0) }),
    );
  });

  it('ignores negative, non-finite and unparsable inputs', () => {
    expect(score({ visitCount: -5, totalSpentCents: -100, noShowCount: -3 })).toBe(0);
    expect(score({ visitCount: Number.NaN, totalSpentCents: Number.POSITIVE_INFINITY })).toBe(0);
    expect(score({ lastVisitAt: 'not a date' })).toBe(0);
  });

  it('is an integer in 0..100 across a grid of inputs', () => {
    for (const days of [0, 45, 200, 400]) {
      for (const visits of [0, 1, 5, 20]) {
        for (const spent of [0, 12_345, 499_999, 10_000_000]) {
          for (const noShows of [0, 1, 3]) {
            const value = score({
              lastVisitAt: daysAgo(days),
              visitCount: visits,
              totalSpentCents: spent,
              noShowCount: noShows,
            });
            expect(Number.isInteger(value)).toBe(true);
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(100);
          }
        }
      }
    }
  });

  it('matches its documented formula at a worked point', () => {
    // recency 40 * (365 - 100) / 335 = 31.64; frequency 30 * 4/10 = 12; spend 30 * 100000/500000 = 6; one no-show -15.
    expect(score({ lastVisitAt: daysAgo(100), visitCount: 4, totalSpentCents: 100_000, noShowCount: 1 })).toBe(35);
    expect(HEALTH_SCORE_FORMULA).toMatch(/recency.*frequency.*spend.*no-show/s);
  });
});
