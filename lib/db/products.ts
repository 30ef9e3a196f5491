import type { PageRequest } from '../crypto/cursor';
import type { ProductRecord } from '../domain/records';
import { tableName } from './client';
import { productCodec, productSkuCodec, stockAdjustmentCodec } from './codecs';
import { DataFailure } from './failure';
import { entityKey, lowStockIndexKeys, lowStockIndexPk, productSkuKey, stockLedgerPk } from './keys';
import { listEntities, queryPage, type Filter, type Page } from './query';
import { getLiveEntity } from './resources';
import type { RequestWrites } from './request-writes';
import {
  stockMoveActions,
  stockMoveFailure,
  type StockEntry,
  type StockMove,
  type StockMoveFailure,
} from './stock-moves';
import { firstFailed, transact, type NamedAction, type TransactItem, type TransactOutcome } from './transact';
import { versionedUpdate } from './update';

/**
 * Products, their SKU uniqueness items, the sparse low-stock index and the stock ledger. Every
 * write is one TransactWriteItems whose failed conditions come back as values.
 */

/** SKUs are unique per practice whatever their case (and Unicode form). */
export const normalizeSku = (sku: string) => sku.trim().normalize('NFKC').toLowerCase();

export const findProduct = (medspaId: string, id: string) => getLiveEntity(medspaId, 'PRODUCT', id);

const productKey = (product: Pick<ProductRecord, 'medspa_id' | 'id'>) =>
  entityKey(product.medspa_id, 'PRODUCT', product.id);

function putSkuAction(medspaId: string, productId: string, sku: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: productSkuCodec.toItem({
        medspa_id: medspaId,
        normalized_sku: normalizeSku(sku),
        product_id: productId,
        sku,
      }),
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Frees a SKU this product holds (never another product's; a missing item is fine). */
const deleteSkuAction = (medspaId: string, productId: string, sku: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: productSkuKey(medspaId, normalizeSku(sku)),
    ConditionExpression: 'attribute_not_exists(pk) OR product_id = :id',
    ExpressionAttributeValues: { ':id': productId },
  },
});

export type ProductWriteResult =
  | { ok: true }
  /** The product changed since it was read (its version moved on). */
  | { ok: false; failed: 'product' }
  /** The SKU belongs to another product of the practice. */
  | { ok: false; failed: 'sku'; takenBy: string | null };

type ProductAction = NamedAction<'product' | 'old-sku' | 'sku'>;

/** A SKU taken first: the product that holds it answers the conflict. */
function productWriteResult(outcome: TransactOutcome<ProductAction>): ProductWriteResult {
  if (outcome.ok) return outcome;
  const failed = firstFailed(outcome.failed, ['sku', 'product', 'old-sku'])!;
  if (failed.name === 'sku')
    return { ok: false, failed: 'sku', takenBy: productSkuCodec.fromItem(failed.old ?? undefined)?.product_id ?? null };
  return { ok: false, failed: 'product' };
}

/** The product with its SKU claim (and its low-stock index entry when it starts low), in one transaction; its id is new. */
export async function putNewProduct(
  product: ProductRecord,
  writes?: RequestWrites,
): Promise<Exclude<ProductWriteResult, { failed: 'product' }>> {
  const outcome = await transact<ProductAction>(
    [
      {
        name: 'product',
        action: {
          Put: {
            TableName: tableName(),
            Item: productCodec.toItem(product),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      { name: 'sku', action: putSkuAction(product.medspa_id, product.id, product.sku) },
    ],
    writes,
  );
  const result = productWriteResult(outcome);
  if (!result.ok && result.failed === 'product')
    throw new DataFailure('collision', `product ${product.id} already exists`);
  return result as Exclude<ProductWriteResult, { failed: 'product' }>;
}

export interface ProductChange {
  /** The product as read; the write applies only if its version is still this one. */
  current: ProductRecord;
  changes: Record<string, unknown>;
  /** Set when the threshold (hence headroom) changes: whether the product is low afterwards. */
  low?: boolean;
  now: string;
  writes?: RequestWrites;
}

/** A PATCH: fields, headroom and low-stock index keys, plus a SKU swap when the SKU changes, all or nothing. */
export async function commitProductChange({
  current,
  changes,
  low,
  now,
  writes,
}: ProductChange): Promise<ProductWriteResult> {
  const lowKeys = lowStockIndexKeys(current.medspa_id, current.id);
  const update: ProductAction = {
    name: 'product',
    action: {
      Update: {
        TableName: tableName(),
        Key: productKey(current),
        ...versionedUpdate(changes, {
          expectedVersion: current.version,
          now,
          indexKeys: low === true ? lowKeys : undefined,
          remove: low === false ? Object.keys(lowKeys) : undefined,
        }),
      },
    },
  };
  const newSku = changes.sku as string | undefined;
  if (newSku === undefined || normalizeSku(newSku) === normalizeSku(current.sku))
    return productWriteResult(await transact([update], writes));
  const outcome = await transact<ProductAction>(
    [
      update,
      { name: 'old-sku', action: deleteSkuAction(current.medspa_id, current.id, current.sku) },
      { name: 'sku', action: putSkuAction(current.medspa_id, current.id, newSku) },
    ],
    writes,
  );
  return productWriteResult(outcome);
}

export type StockWriteResult = { ok: true; entries: StockEntry[] } | ({ ok: false } & StockMoveFailure);

/**
 * One stock adjustment in ONE transaction (lib/db/stock-moves.ts): the product's counters, its
 * lot's (lot-tracked products), the ledger entry (on the retail-sales index when a sale) and, on a
 * crossing down, the low-stock crossing record.
 */
export async function commitStockAdjustment(move: StockMove, writes?: RequestWrites): Promise<StockWriteResult> {
  const { actions, entries } = stockMoveActions(move);
  const outcome = await transact(actions, writes);
  if (outcome.ok) return { ok: true, entries };
  const failure = stockMoveFailure(outcome.failed);
  if (!failure)
    throw new DataFailure(
      'collision',
      `stock adjustment of product ${move.product.id}: no condition names why it failed`,
    );
  return { ok: false, ...failure };
}

/** Products in id order; `lowOnly` reads the sparse low-stock index instead of the collection. */
export function listProducts(
  medspaId: string,
  page: PageRequest,
  options: { lowOnly: boolean; filter?: Filter },
): Promise<Page<ProductRecord>> {
  if (!options.lowOnly) return listEntities(productCodec, medspaId, page, options.filter);
  return queryPage(productCodec, {
    index: 'gsi2',
    partition: lowStockIndexPk(medspaId),
    ...page,
    filter: options.filter,
  });
}

/** A product's ledger, newest first. */
export const listStockLedger = (medspaId: string, productId: string, page: PageRequest) =>
  queryPage(stockAdjustmentCodec, {
    partition: stockLedgerPk(medspaId, productId),
    ...page,
    descending: true,
  });
