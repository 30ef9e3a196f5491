/**
 * Stock rules, pure. A product keeps `headroom = quantity_on_hand - low_stock_threshold`; it is
 * low while headroom <= 0. An adjustment by `delta` makes one of four transitions, decided from
 * the headroom it starts from (the write is conditioned on exactly that state: lib/db/products).
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

export interface StockStep {
  transition: StockTransition;
}

/** The transition `delta` makes from `headroom` (a crossing down is what emits `product.low_stock`). */
export function planStockStep(headroom: number, delta: number): StockStep {
  const after = headroom + delta;
  if (isLow(headroom)) return { transition: isLow(after) ? 'stays_low' : 'crosses_up' };
  return { transition: isLow(after) ? 'crosses_down' : 'stays_above' };
}
