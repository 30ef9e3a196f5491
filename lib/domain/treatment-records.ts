/**
 * Treatment records v2 (API reference, clinical records), pure: the published injection sites,
 * what a record's `products_used` takes from stock, and what replacing one record by another moves
 * (by the difference, per product and lot) and leaves as lot exposures.
 */

/** The injection sites a `products_used[].injection_points[].site` names (published in the OpenAPI document). */
export const INJECTION_SITES = [
  'glabella',
  'forehead',
  'crow_feet_left',
  'crow_feet_right',
  'brow_left',
  'brow_right',
  'bunny_lines',
  'tear_trough_left',
  'tear_trough_right',
  'cheek_left',
  'cheek_right',
  'nasolabial_left',
  'nasolabial_right',
  'marionette_left',
  'marionette_right',
  'lips_upper',
  'lips_lower',
  'perioral',
  'chin',
  'jawline_left',
  'jawline_right',
  'masseter_left',
  'masseter_right',
  'temple_left',
  'temple_right',
  'neck',
  'platysma',
  'decolletage',
  'axilla_left',
  'axilla_right',
  'other',
] as const;
export type InjectionSite = (typeof INJECTION_SITES)[number];

export const RECORD_STATUSES = ['draft', 'signed'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** At most this many distinct product/lot pairs take stock in one record: old and new together fit one transaction. */
export const MAX_STOCK_LINES = 8;

/** A `products_used` item as far as stock is concerned (free-text items name no product). */
export interface StockUse {
  product_id?: string;
  lot_id?: string;
  quantity?: number;
}

/** Units one record takes from one product (and lot: null for a product without lots). */
export interface StockTake {
  product_id: string;
  lot_id: string | null;
  quantity: number;
}

const takeKey = (productId: string, lotId: string | null) => `${productId}|${lotId ?? ''}`;

/** What a record takes, summed per product and lot (an item naming a product with no quantity takes nothing). */
export function stockTakes(items: readonly StockUse[] | undefined): StockTake[] {
  const sums = new Map<string, StockTake>();
  for (const item of items ?? []) {
    if (!item.product_id || !item.quantity) continue;
    const lotId = item.lot_id ?? null;
    const key = takeKey(item.product_id, lotId);
    const found = sums.get(key);
    if (found) found.quantity += item.quantity;
    else sums.set(key, { product_id: item.product_id, lot_id: lotId, quantity: item.quantity });
  }
  return [...sums.values()];
}

/** One product's stock movement from replacing a record: its lines (per lot), each delta the units given back (+) or taken (-). */
export interface ProductMove {
  product_id: string;
  lines: { lot_id: string | null; delta: number }[];
}

/**
 * Replacing `before` (null: no record yet) by `after` moves each product/lot by what the old one
 * took minus what the new one takes: one movement per product, lines that net to zero left out,
 * products in id order (a stable transaction whatever the body's order).
 */
export function stockDifference(before: readonly StockTake[], after: readonly StockTake[]): ProductMove[] {
  const deltas = new Map<string, { product_id: string; lot_id: string | null; delta: number }>();
  const add = (take: StockTake, sign: 1 | -1) => {
    const key = takeKey(take.product_id, take.lot_id);
    const found = deltas.get(key) ?? { product_id: take.product_id, lot_id: take.lot_id, delta: 0 };
    found.delta += sign * take.quantity;
    deltas.set(key, found);
  };
  for (const take of before) add(take, 1);
  for (const take of after) add(take, -1);
  const moves = new Map<string, ProductMove>();
  for (const line of deltas.values()) {
    if (line.delta === 0) continue;
    const move = moves.get(line.product_id) ?? { product_id: line.product_id, lines: [] };
    move.lines.push({ lot_id: line.lot_id, delta: line.delta });
    moves.set(line.product_id, move);
  }
  return [...moves.values()]
    .sort((a, b) => a.product_id.localeCompare(b.product_id))
    .map((move) => ({ ...move, lines: move.lines.sort((a, b) => (a.lot_id ?? '').localeCompare(b.lot_id ?? '')) }));
}

/** A lot's exposure as the record after the change leaves it: `quantity` 0 means its item is deleted. */
export interface ExposureChange {
  lot_id: string;
  product_id: string;
  quantity: number;
}

/**
 * The lot exposure items to write after replacing `before` by `after`: one per lot the new record
 * takes from (its total), and a deletion (quantity 0) per lot only the old one took from. Lots
 * whose total did not change are left alone.
 */
export function exposureChanges(before: readonly StockTake[], after: readonly StockTake[]): ExposureChange[] {
  const totals = (takes: readonly StockTake[]) => {
    const byLot = new Map<string, ExposureChange>();
    for (const take of takes) {
      if (take.lot_id === null) continue;
      const found = byLot.get(take.lot_id) ?? { lot_id: take.lot_id, product_id: take.product_id, quantity: 0 };
      found.quantity += take.quantity;
      byLot.set(take.lot_id, found);
    }
    return byLot;
  };
  const old = totals(before);
  const now = totals(after);
  const changes: ExposureChange[] = [];
  for (const [lotId, exposure] of now) if (old.get(lotId)?.quantity !== exposure.quantity) changes.push(exposure);
  for (const [lotId, exposure] of old) if (!now.has(lotId)) changes.push({ ...exposure, quantity: 0 });
  return changes.sort((a, b) => a.lot_id.localeCompare(b.lot_id));
}
