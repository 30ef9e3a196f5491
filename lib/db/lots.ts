import type { PageRequest } from '../crypto/cursor';
import type { LotRecord } from '../domain/records';
import { normalizeLotNumber } from '../domain/stock';
import { tableName } from './client';
import { lotCodec, lotNumberCodec } from './codecs';
import { DataFailure } from './failure';
import { productLotsIndexPk } from './keys';
import { queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { getLiveEntity } from './resources';
import { firstFailed, transact, type NamedAction } from './transact';

/** Lots of lot-tracked products (their stock moves in lib/db/stock-moves.ts). */

export const findLot = (medspaId: string, id: string) => getLiveEntity(medspaId, 'LOT', id);

export type LotWriteResult = { ok: true } | { ok: false; failed: 'lot_number'; takenBy: string | null };

/**
 * The lot with its lot-number claim, in one transaction: two creates of one number (in any case)
 * race on the claim item, so exactly one commits. Its id is new.
 */
export async function putNewLot(lot: LotRecord, writes?: RequestWrites): Promise<LotWriteResult> {
  const outcome = await transact<NamedAction<'lot' | 'lot_number'>>(
    [
      {
        name: 'lot',
        action: {
          Put: { TableName: tableName(), Item: lotCodec.toItem(lot), ConditionExpression: 'attribute_not_exists(pk)' },
        },
      },
      {
        name: 'lot_number',
        action: {
          Put: {
            TableName: tableName(),
            Item: lotNumberCodec.toItem({
              medspa_id: lot.medspa_id,
              product_id: lot.product_id,
              normalized_lot_number: normalizeLotNumber(lot.lot_number),
              lot_id: lot.id,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      },
    ],
    writes,
  );
  if (outcome.ok) return outcome;
  const taken = firstFailed(outcome.failed, ['lot_number']);
  if (!taken) throw new DataFailure('collision', `lot ${lot.id} already exists`);
  return { ok: false, failed: 'lot_number', takenBy: lotNumberCodec.fromItem(taken.old ?? undefined)?.lot_id ?? null };
}

/** A product's lots, first to expire first (its gsi2 partition). */
export const listProductLots = (medspaId: string, productId: string, page: PageRequest): Promise<Page<LotRecord>> =>
  queryPage(lotCodec, { index: 'gsi2', partition: productLotsIndexPk(medspaId, productId), ...page });
