import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { findLot, listProductLots, putNewLot } from '../db/lots';
import { findProduct } from '../db/products';
import type { RequestWrites } from '../db/request-writes';
import type { LotRecord } from '../domain/records';
import { AppError } from '../errors';
import type { CreateLotInput, Lot } from '../schemas/products';
import { toListResult, type ListResult } from './list-result';

/**
 * Lots of lot-tracked products (API reference, clinical records: lots). A lot is created empty;
 * its units come and go only through stock adjustments naming it (lib/use-cases/products.ts) and
 * treatment records, each moving the lot and its product in one write.
 */

const toLot = ({ medspa_id: _medspaId, ...lot }: LotRecord): Lot => lot;

async function lotTrackedProduct(medspaId: string, productId: string) {
  const product = await findProduct(medspaId, productId);
  if (!product) throw new AppError('PRODUCT_NOT_FOUND');
  return product;
}

/** A new lot, with its number claimed per product in the same write (409 LOT_EXISTS, whatever the case). */
export async function createLot(
  medspaId: string,
  productId: string,
  input: CreateLotInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Lot> {
  const product = await lotTrackedProduct(medspaId, productId);
  if (!product.tracks_lots)
    throw new AppError('CONFLICT', 'This product does not track lots (tracks_lots is set when a product is created)');
  const at = now.toISOString();
  const lot: LotRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    product_id: product.id,
    lot_number: input.lot_number,
    expires_on: input.expires_on,
    quantity_on_hand: 0,
    status: 'active',
    recalled_at: null,
    recall_reason: null,
    recall_reference: null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const result = await putNewLot(lot, writes);
  if (!result.ok)
    throw new AppError('LOT_EXISTS', `This product already has lot ${input.lot_number} (lot numbers ignore case)`, {
      details: [
        {
          path: 'lot_number',
          message: result.takenBy ? `already used by lot ${result.takenBy}` : 'already used by another lot',
        },
      ],
    });
  return toLot(lot);
}

export async function readLot(medspaId: string, id: string): Promise<Lot> {
  const lot = await findLot(medspaId, id);
  if (!lot) throw new AppError('LOT_NOT_FOUND');
  return toLot(lot);
}

/** A product's lots, first to expire first; the product's 404 for unknown ids. */
export async function listLots(
  medspaId: string,
  productId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<Lot>> {
  const page = pageRequest(medspaId, 'lots', { ...query, product_id: productId });
  const [, lots] = await Promise.all([
    lotTrackedProduct(medspaId, productId),
    listProductLots(medspaId, productId, page),
  ]);
  return toListResult({ ...lots, items: lots.items.map(toLot) });
}
