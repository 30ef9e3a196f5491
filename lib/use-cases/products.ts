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
import type { ProductRecord } from '../domain/records';
import { deltaProblem, isLow, planStockStep } from '../domain/stock';
import { AppError } from '../errors';
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

/**
 * Reads the product once, then writes the adjustment conditioned on the exact quantity and
 * headroom read, with the ledger entry (`quantity_after` = that quantity + delta) and any
 * crossing record in the same transaction. When another adjustment got there first, the failed
 * condition returns the product as it now is and the adjustment is planned again from it (no
 * re-read): the stock is short (409 INSUFFICIENT_STOCK) or it retries. So `quantity_after` is
 * exact under any concurrency (N racing sales of one unit from N record N-1, ..., 0, each once),
 * and a crossing to low stock is recorded by exactly one adjustment.
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
  let state = await readStored(caller.medspaId, productId);
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
      const step = planStockStep(state.headroom, input.delta);
      const entry: StockAdjustment = {
        id,
        product_id: state.id,
        delta: input.delta,
        reason: input.reason,
        unit_price_cents: input.unit_price_cents ?? (input.reason === 'sale' ? state.price_cents : null),
        note: input.note ?? null,
        quantity_after: state.quantity_on_hand + input.delta,
        low_stock_crossed: step.transition === 'crosses_down',
        created_at: at,
        created_by: caller.clientId,
      };
      const result = await commitStockAdjustment(state, step, entry, writes);
      if (result.ok) return { done: entry };
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
