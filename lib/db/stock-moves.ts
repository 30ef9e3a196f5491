import type { LotRecord, ProductRecord, StockAdjustmentRecord } from '../domain/records';
import { isLotUse, lotRefusal, planStockStep, type LotRefusal, type StockReason } from '../domain/stock';
import { tableName } from './client';
import { lotCodec, lowStockCrossingCodec, productCodec, stockAdjustmentCodec } from './codecs';
import { DataFailure } from './failure';
import { entityKey, lowStockIndexKeys } from './keys';
import type { Failed, NamedAction, TransactItem } from './transact';
import { newItemAction } from './put-new';

/**
 * One stock movement of one product as transaction items, to commit alone (a stock adjustment)
 * or inside another transaction (a treatment record taking stock with the record itself):
 * - the product's quantity and headroom move by the lines' sum, conditioned on exactly the values
 *   read (so `quantity_after` is exact and a low-stock crossing is recorded once; a lost race
 *   returns the product as it now is, ALL_OLD, to plan the next try from);
 * - each line's lot (lot-tracked products) moves by its delta in the same write, conditioned on
 *   the lot itself: it exists and is this product's, never goes below zero and, for a use (a sale,
 *   a treatment taking units), is not recalled and not expired before `usableOn`. Those rules
 *   are checked by DynamoDB as the write commits, never by a read before it;
 * - one ledger entry per line, and a crossing record when the product crosses to low stock.
 */

export interface StockMoveLine {
  /** The ledger entry's id (new). */
  id: string;
  delta: number;
  /** Required for a lot-tracked product, null otherwise; one line per lot. */
  lot_id: string | null;
  unit_price_cents: number | null;
  note: string | null;
}

export interface StockMove {
  /** The product as read: the write applies only while its quantity and headroom are still these. */
  product: ProductRecord;
  reason: StockReason;
  lines: readonly StockMoveLine[];
  /** The treatment record's appointment (reason `treatment`), else null. */
  appointment_id: string | null;
  /** The credential that made it. */
  created_by: string;
  at: string;
  /** Practice-local date a used lot must not have expired before (LOT_EXPIRED); absent: expiry not checked. */
  usableOn?: string;
}

type StockMoveName = 'stock-product' | 'stock-lot' | 'stock-ledger' | 'stock-crossing';

/** A named action of a stock move, carrying what its failure needs to be read back. */
export type StockMoveAction = NamedAction<StockMoveName> & {
  productId: string;
  /** On a lot action: the movement its conditions judged. */
  lotMove?: { lotId: string; productId: string; reason: StockReason; delta: number; usableOn?: string };
};

export type StockEntry = Omit<StockAdjustmentRecord, 'medspa_id'>;

/**
 * The product's quantity and headroom move by the lines' sum, only if they are still exactly the
 * values the move was planned from: so the transition (and the crossing record) is the one chosen,
 * the floor holds, and each entry's `quantity_after` is the product's quantity right after this
 * very commit. A crossing down also enters the low-stock index, a crossing up leaves it. On a failed
 * condition the item as it was comes back (ALL_OLD), to plan the next try from.
 */
function productUpdate(product: ProductRecord, delta: number, transition: string, now: string): TransactItem {
  const names: Record<string, string> = {
    '#q': 'quantity_on_hand',
    '#h': 'headroom',
    '#v': 'version',
    '#u': 'updated_at',
  };
  const values: Record<string, unknown> = {
    ':d': delta,
    ':one': 1,
    ':now': now,
    ':q': product.quantity_on_hand,
    ':h': product.headroom,
  };
  const sets = ['#q = #q + :d', '#h = #h + :d', '#v = #v + :one', '#u = :now'];
  let remove = '';
  if (transition === 'crosses_down' || transition === 'crosses_up') {
    const indexKeys = Object.entries(lowStockIndexKeys(product.medspa_id, product.id));
    indexKeys.forEach(([name, value], index) => {
      names[`#k${index}`] = name;
      if (transition !== 'crosses_down') return;
      values[`:k${index}`] = value;
      sets.push(`#k${index} = :k${index}`);
    });
    if (transition === 'crosses_up') remove = ` REMOVE ${indexKeys.map((_, index) => `#k${index}`).join(', ')}`;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: entityKey(product.medspa_id, 'PRODUCT', product.id),
      UpdateExpression: `SET ${sets.join(', ')}${remove}`,
      ConditionExpression: 'attribute_exists(pk) AND #q = :q AND #h = :h',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The lot's own conditions: lib/domain/stock `lotRefusal` names the one that failed. */
function lotUpdate(move: StockMove, lotId: string, delta: number): TransactItem {
  const names: Record<string, string> = { '#q': 'quantity_on_hand', '#v': 'version', '#u': 'updated_at' };
  const values: Record<string, unknown> = { ':d': delta, ':one': 1, ':now': move.at, ':p': move.product.id };
  const conditions = ['attribute_exists(pk)', 'product_id = :p'];
  if (delta < 0) {
    values[':need'] = -delta;
    conditions.push('#q >= :need');
  }
  if (isLotUse(move.reason, delta)) {
    names['#s'] = 'status';
    values[':active'] = 'active';
    conditions.push('#s = :active');
    if (move.usableOn !== undefined) {
      values[':usable'] = move.usableOn;
      conditions.push('expires_on >= :usable');
    }
  }
  return {
    Update: {
      TableName: tableName(),
      Key: entityKey(move.product.medspa_id, 'LOT', lotId),
      UpdateExpression: 'SET #q = #q + :d, #v = #v + :one, #u = :now',
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * The items of one product's movement and the ledger entries they write (`quantity_after` chained
 * from the quantity read). The caller has checked the product's floor (quantity_on_hand + the
 * lines' sum >= 0: INSUFFICIENT_STOCK) and that lots are named exactly when the product tracks
 * them. Several products may move in one transaction, one move each (DynamoDB takes one action
 * per item); a product's several lots are several lines of its one move.
 */
export function stockMoveActions(move: StockMove): { actions: StockMoveAction[]; entries: StockEntry[] } {
  const { product, lines } = move;
  if (lines.length === 0) throw new Error('a stock move needs at least one line');
  const lotIds = lines.map((line) => line.lot_id);
  if (lotIds.some((lotId) => (lotId !== null) !== product.tracks_lots))
    throw new Error(`product ${product.id}: lots must be named exactly when it tracks them`);
  if (product.tracks_lots && new Set(lotIds).size !== lotIds.length) throw new Error('one line per lot');
  const total = lines.reduce((sum, line) => sum + line.delta, 0);
  const { transition } = planStockStep(product.headroom, total);
  const productId = product.id;
  let quantity = product.quantity_on_hand;
  const entries: StockEntry[] = lines.map((line, index) => {
    quantity += line.delta;
    return {
      id: line.id,
      product_id: productId,
      delta: line.delta,
      reason: move.reason,
      unit_price_cents: line.unit_price_cents,
      note: line.note,
      quantity_after: quantity,
      // The move's last entry is the one that leaves the product where it ends.
      low_stock_crossed: transition === 'crosses_down' && index === lines.length - 1,
      lot_id: line.lot_id,
      appointment_id: move.appointment_id,
      created_at: move.at,
      created_by: move.created_by,
    };
  });
  const medspaId = product.medspa_id;
  const actions: StockMoveAction[] = [
    { name: 'stock-product', productId, action: productUpdate(product, total, transition, move.at) },
  ];
  for (const line of lines) {
    if (line.lot_id === null) continue;
    actions.push({
      name: 'stock-lot',
      productId,
      lotMove: { lotId: line.lot_id, productId, reason: move.reason, delta: line.delta, usableOn: move.usableOn },
      action: lotUpdate(move, line.lot_id, line.delta),
    });
  }
  for (const entry of entries)
    actions.push({
      name: 'stock-ledger',
      productId,
      action: newItemAction(stockAdjustmentCodec.toItem({ medspa_id: medspaId, ...entry })),
    });
  if (transition === 'crosses_down') {
    const last = entries[entries.length - 1]!;
    actions.push({
      name: 'stock-crossing',
      productId,
      action: newItemAction(
        lowStockCrossingCodec.toItem({
          medspa_id: medspaId,
          product_id: productId,
          adjustment_id: last.id,
          quantity_on_hand: last.quantity_after,
          low_stock_threshold: product.low_stock_threshold,
          occurred_at: move.at,
          // The product as of the crossing, for `product.low_stock`'s object: the fields as read,
          // the quantity this move left (as precise as `quantity_after`).
          product: {
            ...product,
            quantity_on_hand: last.quantity_after,
            headroom: last.quantity_after - product.low_stock_threshold,
            version: product.version + 1,
            updated_at: move.at,
          },
        }),
      ),
    });
  }
  return { actions, entries };
}

export type StockMoveFailure =
  /** A lot refused the movement (that lot's state then decides it: no retry helps). */
  | { failed: 'lot'; productId: string; lotId: string; refusal: LotRefusal; lot: LotRecord | null }
  /** The product's stock moved since it was read: the product as it now is (null if absent); plan again from it. */
  | { failed: 'product'; productId: string; current: ProductRecord | null };

/**
 * What a cancelled transaction's failed stock-move items mean (any other failed items of the
 * transaction are ignored; null when no stock-move item failed). A lot's refusal comes first: it
 * is final, where a product that moved only asks for another try. A ledger or crossing item that
 * already exists is a DataFailure `collision` (their ids are new).
 */
export function stockMoveFailure(failed: readonly Failed<NamedAction>[]): StockMoveFailure | null {
  const ours = failed.filter((failure): failure is Failed<StockMoveAction> => failure.name.startsWith('stock-'));
  for (const failure of ours) {
    if (failure.name !== 'stock-lot' || !failure.lotMove) continue;
    const lot = lotCodec.fromItem(failure.old ?? undefined);
    const refusal = lotRefusal(lot, failure.lotMove);
    // A lot that refuses nothing as it stands failed only alongside its product: try again.
    if (refusal) return { failed: 'lot', productId: failure.productId, lotId: failure.lotMove.lotId, refusal, lot };
  }
  const product = ours.find((failure) => failure.name === 'stock-product');
  if (product)
    return {
      failed: 'product',
      productId: product.productId,
      current: productCodec.fromItem(product.old ?? undefined),
    };
  if (ours.some((failure) => failure.name === 'stock-ledger' || failure.name === 'stock-crossing'))
    throw new DataFailure('collision', 'a stock ledger or crossing item already exists');
  return null;
}
