/**
 * Stock rules, pure. A product keeps `headroom = quantity_on_hand - low_stock_threshold`; it is
 * low while headroom <= 0. An adjustment by `delta` makes one of four transitions, decided from
 * the headroom it starts from (the write is conditioned on exactly that state: lib/db/products).
 */

/** The reasons the public stock-adjustment route takes. */
export const PUBLIC_STOCK_REASONS = ['received', 'sale', 'damaged', 'correction', 'return'] as const;
/** Every reason a ledger entry may carry: `treatment` is written only by treatment records (take or give back). */
export const STOCK_REASONS = [...PUBLIC_STOCK_REASONS, 'treatment'] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** Stock that comes in is positive, stock that goes out negative; a correction (or a treatment's give-back) goes either way. */
const SIGN: Record<StockReason, 1 | -1 | 0> = {
  received: 1,
  return: 1,
  sale: -1,
  damaged: -1,
  correction: 0,
  treatment: 0,
};

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

// ---- Lots (API reference, clinical records: lots) ------------------------------------------------

export const LOT_STATUSES = ['active', 'recalled'] as const;
export type LotStatus = (typeof LOT_STATUSES)[number];

/**
 * Whether a movement puts a lot's units to use (a sale, or a treatment taking them): only uses are
 * refused for a recalled or expired lot. Disposing of recalled or expired stock (damaged,
 * correction), receiving or a client's return, and a treatment record giving units back all still move it.
 */
export const isLotUse = (reason: StockReason, delta: number) =>
  delta < 0 && (reason === 'sale' || reason === 'treatment');

/** Expired on `date` (a practice-local YYYY-MM-DD) means its last day of use was before it: usable through `expires_on`. */
export const isExpiredOn = (expiresOn: string, date: string) => expiresOn < date;

/** Lot numbers are unique per product whatever their case, surrounding spaces or Unicode form. */
export const normalizeLotNumber = (lotNumber: string) => lotNumber.trim().normalize('NFKC').toUpperCase();

/** What a lot movement needs of its lot, and why it is refused (null: it moves). */
export interface LotState {
  product_id: string;
  status: LotStatus;
  expires_on: string;
  quantity_on_hand: number;
}

export type LotRefusal = 'LOT_NOT_FOUND' | 'LOT_RECALLED' | 'LOT_EXPIRED' | 'INSUFFICIENT_STOCK';

/**
 * The refusal a lot's state gives a movement of `delta` units of `productId` for `reason`, checked
 * in this order; `usableOn` is the date an expiry is judged against (absent: expiry not checked).
 * The write's own conditions (lib/db/stock-moves.ts) are these rules; this names the one that failed.
 */
export function lotRefusal(
  lot: LotState | null,
  move: { productId: string; reason: StockReason; delta: number; usableOn?: string },
): LotRefusal | null {
  if (!lot || lot.product_id !== move.productId) return 'LOT_NOT_FOUND';
  const use = isLotUse(move.reason, move.delta);
  if (use && lot.status === 'recalled') return 'LOT_RECALLED';
  if (use && move.usableOn !== undefined && isExpiredOn(lot.expires_on, move.usableOn)) return 'LOT_EXPIRED';
  if (lot.quantity_on_hand + move.delta < 0) return 'INSUFFICIENT_STOCK';
  return null;
}
