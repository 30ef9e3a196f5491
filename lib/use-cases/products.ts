import { randomUUID } from 'node:crypto';
import { ALLOW, type Role } from '../auth/roles';
import type { Caller } from '../auth/tokens';
import { pageRequest } from '../crypto/cursor';
import {
  commitProductChange,
  commitStockAdjustment,
  findProduct,
  listProducts as queryProducts,
  listStockLedger,
  putNewProduct,
} from '../db/products';
import { above, where } from '../db/query';
import type { RequestWrites } from '../db/request-writes';
import { afterUpdate, changesNothing, definedFields } from '../db/update';
import { toProduct } from '../domain/presenters';
import type { LotRecord, ProductRecord } from '../domain/records';
import { localDateOf } from '../domain/time';
import { deltaProblem, isLotUse, isLow, type LotRefusal } from '../domain/stock';
import { AppError, fieldError } from '../errors';
import { retry } from '../retry';
import type {
  CreateProductInput,
  CreateStockAdjustmentInput,
  Product,
  ProductListQuery,
  StockAdjustment,
  UpdateProductInput,
} from '../schemas/products';
import { toListResult, type ListResult } from './list-result';
import { readPractice } from './practice';
import type { WriteOptions } from './resources';

/**
 * Retail products and stock (API reference, other resources). The quantity changes only through adjustments: each is
 * one transaction (counters + ledger entry + crossing record), conditioned on the stock floor and
 * on the headroom range of the low-stock transition it makes (lib/domain/stock).
 */

const skuTaken = (sku: string, takenBy: string | null) =>
  new AppError(
    'CONFLICT',
    `A product with SKU "${sku}" already exists in this practice (SKUs are compared case-insensitively)`,
    {
      details: [
        { path: 'sku', message: takenBy ? `already used by product ${takenBy}` : 'already used by another product' },
      ],
    },
  );

/** Enough tries for every adjustment of a burst to take its turn (each failed try means another committed). */
const STOCK_ATTEMPTS = 64;

const changingTooFast = (): never => {
  throw new AppError('VERSION_CONFLICT', 'The product is changing too fast; read it again and retry');
};

async function readStored(medspaId: string, id: string): Promise<ProductRecord> {
  const found = await findProduct(medspaId, id);
  if (!found) throw new AppError('PRODUCT_NOT_FOUND');
  return found;
}

export const readProduct = async (medspaId: string, id: string): Promise<Product> =>
  toProduct(await readStored(medspaId, id));

export async function createProduct(
  medspaId: string,
  input: CreateProductInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Product> {
  if (input.tracks_lots && input.quantity_on_hand !== 0) {
    const message =
      "must be 0 for a lot-tracked product: its stock comes in by lot (POST /v1/products/{id}/lots, then a 'received' adjustment naming lot_id)";
    throw new AppError('VALIDATION_ERROR', `quantity_on_hand ${message}`, {
      details: [{ path: 'quantity_on_hand', message }],
    });
  }
  const at = now.toISOString();
  const product: ProductRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    name: input.name,
    sku: input.sku,
    brand: input.brand ?? null,
    category: input.category ?? null,
    price_cents: input.price_cents,
    cost_cents: input.cost_cents ?? null,
    quantity_on_hand: input.quantity_on_hand,
    low_stock_threshold: input.low_stock_threshold,
    active: input.active,
    tracks_lots: input.tracks_lots ?? false,
    version: 1,
    created_at: at,
    updated_at: at,
    headroom: input.quantity_on_hand - input.low_stock_threshold,
  };
  const result = await putNewProduct(product, writes);
  if (!result.ok) throw skuTaken(input.sku, result.takenBy);
  return toProduct(product);
}

/**
 * A PATCH, read then written on the version read: a new threshold recomputes the headroom and
 * the low-stock index entry, a new SKU swaps the uniqueness items. Without If-Match a concurrent
 * change (a stock adjustment, say) just means another try on fresh state.
 */
export function changeProduct(
  medspaId: string,
  id: string,
  input: UpdateProductInput,
  options: WriteOptions,
): Promise<Product> {
  const at = options.now.toISOString();
  const changes = definedFields(input);
  return retry<Product>(
    async (attempt) => {
      const current = await readStored(medspaId, id);
      if (options.ifMatch !== undefined && options.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
      const headroom =
        input.low_stock_threshold === undefined ? undefined : current.quantity_on_hand - input.low_stock_threshold;
      const write = headroom === undefined ? changes : { ...changes, headroom };
      if (changesNothing(write, current)) return { done: toProduct(current) };
      const result = await commitProductChange({
        current,
        changes: write,
        low: headroom === undefined ? undefined : isLow(headroom),
        now: at,
        writes: options.writes,
      });
      if (result.ok) return { done: toProduct(afterUpdate(current, write, at)) };
      if (result.failed === 'sku') throw skuTaken(input.sku!, result.takenBy);
      if (result.failed === 'product' && options.ifMatch !== undefined) throw new AppError('VERSION_CONFLICT');
      // Sales move the version too (each conditioned on the exact quantity): after a couple of
      // immediate tries, step aside with jitter so a burst of them lets the change through.
      return { retry: attempt <= 2 ? 'now' : 'later' };
    },
    { attempts: STOCK_ATTEMPTS, exhausted: changingTooFast },
  );
}

export async function listProducts(medspaId: string, query: ProductListQuery): Promise<ListResult<Product>> {
  // low_stock=true reads the sparse index; "not low" has no index of its own and is a filter.
  const filter = where<ProductRecord>({
    category: query.category,
    headroom: query.low_stock === false ? above(0) : undefined,
  });
  const page = await queryProducts(medspaId, pageRequest(medspaId, 'products', query), {
    lowOnly: query.low_stock === true,
    filter,
  });
  return toListResult({ ...page, items: page.items.map(toProduct) });
}

/** Managers record any movement; the front desk only sales (API reference, authentication and access: "stock sales"). */
const mayAdjust = (role: Role, reason: CreateStockAdjustmentInput['reason']) =>
  reason === 'sale' || (ALLOW.catalogWrite as readonly Role[]).includes(role);

const lotIdProblem = (message: string) => fieldError('lot_id', message, `lot_id ${message}`);

/** A lot's refusal as the API's error (lib/domain/stock `lotRefusal`). */
export function lotError(refusal: LotRefusal, lot: LotRecord | null, delta: number): AppError {
  switch (refusal) {
    case 'LOT_NOT_FOUND':
      return new AppError('LOT_NOT_FOUND', 'Lot does not exist for this product');
    case 'LOT_RECALLED':
      return new AppError('LOT_RECALLED', `Lot ${lot!.lot_number} has been recalled: no further sale or use`);
    case 'LOT_EXPIRED':
      return new AppError('LOT_EXPIRED', `Lot ${lot!.lot_number} expired on ${lot!.expires_on}`);
    case 'INSUFFICIENT_STOCK':
      return new AppError(
        'INSUFFICIENT_STOCK',
        `Only ${lot!.quantity_on_hand} of lot ${lot!.lot_number} on hand; cannot take out ${-delta}`,
      );
  }
}

/**
 * Reads the product once, then writes the adjustment conditioned on the exact quantity and
 * headroom read, with the ledger entry (`quantity_after` = that quantity + delta) and any
 * crossing record in the same transaction. When another adjustment got there first, the failed
 * condition returns the product as it now is and the adjustment is planned again from it (no
 * re-read): the stock is short (409 INSUFFICIENT_STOCK) or it retries. So `quantity_after` is
 * exact under any concurrency (N racing sales of one unit from N record N-1, ..., 0, each once),
 * and a crossing to low stock is recorded by exactly one adjustment.
 *
 * A lot-tracked product's adjustment names its lot, whose quantity moves in the same write under
 * the lot's own conditions (exists for this product, never below zero; for a sale, not recalled
 * and not expired before the practice's today): never read first, so a recall or a concurrent
 * sale between a read and the write cannot slip through. Only sales are refused for an expired
 * lot: damaged and correction still dispose of it, received and return still book it in.
 */
export async function createStockAdjustment(
  caller: Caller,
  productId: string,
  input: CreateStockAdjustmentInput,
  now: Date,
  writes?: RequestWrites,
): Promise<StockAdjustment> {
  if (!mayAdjust(caller.role, input.reason))
    throw new AppError('FORBIDDEN', `Your role may record only sales (reason 'sale'), not '${input.reason}'`);
  const problem = deltaProblem(input.reason, input.delta);
  if (problem)
    throw new AppError('VALIDATION_ERROR', `delta ${problem}`, { details: [{ path: 'delta', message: problem }] });
  const lotId = input.lot_id ?? null;
  // A sale's lot is judged for expiry against the practice's today: its time zone is read alongside.
  const judgesExpiry = lotId !== null && isLotUse(input.reason, input.delta);
  const [product, practice] = await Promise.all([
    readStored(caller.medspaId, productId),
    judgesExpiry ? readPractice(caller.medspaId) : null,
  ]);
  if (product.tracks_lots && lotId === null) throw lotIdProblem('is required: this product tracks lots');
  if (!product.tracks_lots && lotId !== null) throw lotIdProblem('is not allowed: this product does not track lots');
  const usableOn = practice ? localDateOf(now.toISOString(), practice.time_zone) : undefined;
  let state = product;
  const id = randomUUID();
  const at = now.toISOString();
  return retry<StockAdjustment>(
    async (attempt) => {
      if (state.quantity_on_hand + input.delta < 0) {
        throw new AppError(
          'INSUFFICIENT_STOCK',
          `Only ${state.quantity_on_hand} on hand; cannot take out ${-input.delta}`,
        );
      }
      const line = {
        id,
        delta: input.delta,
        lot_id: lotId,
        unit_price_cents: input.unit_price_cents ?? (input.reason === 'sale' ? state.price_cents : null),
        note: input.note ?? null,
      };
      const result = await commitStockAdjustment(
        {
          product: state,
          reason: input.reason,
          lines: [line],
          appointment_id: null,
          created_by: caller.clientId,
          at,
          usableOn,
        },
        writes,
      );
      if (result.ok) return { done: result.entries[0]! };
      if (result.failed === 'lot') throw lotError(result.refusal, result.lot, input.delta);
      if (!result.current) throw new AppError('PRODUCT_NOT_FOUND');
      state = result.current;
      // The new state is in hand; after a few lost turns, step aside a little so a burst spreads out.
      return { retry: attempt <= 3 ? 'now' : 'later' };
    },
    {
      attempts: STOCK_ATTEMPTS,
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT', "The product's stock is changing too fast; try again");
      },
    },
  );
}

/** The ledger, newest first; the product's 404 for unknown ids. */
export async function listStockAdjustments(
  medspaId: string,
  productId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<StockAdjustment>> {
  const page = pageRequest(medspaId, 'stock-adjustments', { ...query, product_id: productId });
  const [, ledger] = await Promise.all([readStored(medspaId, productId), listStockLedger(medspaId, productId, page)]);
  return toListResult(ledger);
}
