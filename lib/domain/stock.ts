/**
 * Stock rules, pure. A product keeps `headroom = quantity_on_hand - low_stock_threshold`; it is
 * low while headroom <= 0. An adjustment by `delta` is one of four transitions, each valid for a
 * range of the headroom it starts from, so the write can be conditioned on that range with
 * constants (no read-modify-write of the quantity, no contention between adjustments that take
 * the same transition).
 */

export const STOCK_REASONS = ['received', 'sale', 'damaged', 'correction', 'return'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** Stock that comes in is positive, stock that goes out negative; a correction goes either way. */
const SIGN: Record<StockReason, 1 | -1 | 0> = { received: 1, return: 1, sale: -1, damaged: -1, correction: 0 };

/** Why the delta does not fit the reason, or null when it does. */
export function deltaProblem(reason: StockReason, delta: number): string | null {
  if (delta === 0) return 'must not be 0';
  const sign = SIGN[reason];
  if (sign === 1 && delta < 0) return `must be positive for reason '${reason}' (stock comes in)`;
  if (sign === -1 && delta > 0) return `must be negative for reason '${reason}' (stock goes out)`;
  return null;
}

export const isLow = (headroom: number) => headroom <= 0;

export type StockTransition = 'stays_above' | 'crosses_down' | 'stays_low' | 'crosses_up';

/** An inclusive headroom range; null is unbounded. */
export interface HeadroomRange {
  min: number | null;
  max: number | null;
}

export interface StockStep {
  transition: StockTransition;
  /** The write applies only while the headroom is in this range (so the transition is the one chosen). */
  headroom: HeadroomRange;
  /** The write applies only while quantity_on_hand >= floor (never below zero); null for increases. */
  floor: number | null;
}

/** The transition `delta` makes from `headroom`, and the range of starting headrooms for which it is that transition. */
export function planStockStep(headroom: number, delta: number): StockStep {
  if (delta < 0) {
    const k = -delta;
    const floor = k;
    if (headroom > k) return { transition: 'stays_above', headroom: { min: k + 1, max: null }, floor };
    if (headroom >= 1) return { transition: 'crosses_down', headroom: { min: 1, max: k }, floor };
    return { transition: 'stays_low', headroom: { min: null, max: 0 }, floor };
  }
  if (headroom >= 1) return { transition: 'stays_above', headroom: { min: 1, max: null }, floor: null };
  if (headroom >= 1 - delta) return { transition: 'crosses_up', headroom: { min: 1 - delta, max: 0 }, floor: null };
  return { transition: 'stays_low', headroom: { min: null, max: -delta }, floor: null };
}
