import type { PageRequest } from '../crypto/cursor';
import type { LotExposureRecord, LotRecord, ProductRecord, TreatmentRecord } from '../domain/records';
import { tableName } from './client';
import { lotCodec, lotExposureCodec, productCodec, treatmentRecordCodec, treatmentRevisionCodec } from './codecs';
import { DataFailure } from './failure';
import { readItems, itemId } from './key-reads';
import { appointmentPk, entityKey, lotExposureKey, TREATMENT_REVISION_PREFIX } from './keys';
import { queryPage } from './query';
import type { RequestWrites } from './request-writes';
import {
  stockMoveActions,
  stockMoveFailure,
  type StockEntry,
  type StockMove,
  type StockMoveAction,
  type StockMoveFailure,
} from './stock-moves';
import { transact, type NamedAction } from './transact';

/**
 * Treatment records v2 (API reference, clinical records): a record change is ONE transaction of
 * the record (conditioned on the version read), its signed revision when it is one, the stock it
 * moves (lib/db/stock-moves.ts, one move per product, by the difference from the record it
 * replaces) and the lot exposure items that follow (one per lot the record now takes from, with
 * its total; deleted when it takes nothing from that lot any more). So the chart, the stock count
 * and the exposures never disagree.
 */

export interface RecordChange {
  record: TreatmentRecord;
  /** The version read (the write applies only while it is still the current one); null: no record yet. */
  expectedVersion: number | null;
  /** Also write the record as its signed revision (sign, amend). */
  revision: boolean;
  stock: readonly StockMove[];
  /** Exposures to write; quantity 0 deletes the lot's item for this appointment. */
  exposures: readonly LotExposureRecord[];
}

type RecordActionName = 'record' | 'revision' | 'exposure';
type RecordAction = NamedAction<RecordActionName> | StockMoveAction;

export type RecordChangeResult =
  | { ok: true; entries: StockEntry[] }
  /** Another change of the record committed first (or it appeared or vanished). */
  | { ok: false; failed: 'record' }
  | ({ ok: false } & StockMoveFailure);

function recordPut(change: RecordChange): NamedAction<'record'> {
  const expected = change.expectedVersion;
  return {
    name: 'record',
    action: {
      Put: {
        TableName: tableName(),
        Item: treatmentRecordCodec.toItem(change.record),
        ...(expected === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : {
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: { ':v': expected },
            }),
      },
    },
  };
}

function exposureAction(exposure: LotExposureRecord): NamedAction<'exposure'> {
  const action =
    exposure.quantity > 0
      ? { Put: { TableName: tableName(), Item: lotExposureCodec.toItem(exposure) } }
      : {
          Delete: {
            TableName: tableName(),
            Key: lotExposureKey(exposure.medspa_id, exposure.lot_id, exposure.appointment_id),
          },
        };
  return { name: 'exposure', action };
}

export async function commitRecordChange(change: RecordChange, writes?: RequestWrites): Promise<RecordChangeResult> {
  const actions: RecordAction[] = [recordPut(change)];
  if (change.revision) {
    if (change.record.revision === null) throw new Error('a revision needs its number');
    actions.push({
      name: 'revision',
      action: {
        Put: {
          TableName: tableName(),
          Item: treatmentRevisionCodec.toItem({ ...change.record, revision: change.record.revision }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    });
  }
  const entries: StockEntry[] = [];
  for (const move of change.stock) {
    const planned = stockMoveActions(move);
    actions.push(...planned.actions);
    entries.push(...planned.entries);
  }
  actions.push(...change.exposures.map(exposureAction));
  const outcome = await transact(actions, writes);
  if (outcome.ok) return { ok: true, entries };
  // The record's version decides first: the stock was planned from a record that is no longer current.
  if (outcome.failed.some((failure) => failure.name === 'record' || failure.name === 'revision'))
    return { ok: false, failed: 'record' };
  const stock = stockMoveFailure(outcome.failed);
  if (!stock) throw new DataFailure('collision', 'treatment record change: no condition names why it failed');
  return { ok: false, ...stock };
}

/** Products and lots by id, read in one round trip (with whatever else the request reads in the same tick). */
export async function readStock(
  medspaId: string,
  productIds: readonly string[],
  lotIds: readonly string[],
): Promise<{ products: Map<string, ProductRecord>; lots: Map<string, LotRecord> }> {
  const productKeys = [...new Set(productIds)].map((id) => entityKey(medspaId, 'PRODUCT', id));
  const lotKeys = [...new Set(lotIds)].map((id) => entityKey(medspaId, 'LOT', id));
  const found = await readItems([...productKeys, ...lotKeys]);
  const products = new Map<string, ProductRecord>();
  for (const key of productKeys) {
    const product = productCodec.fromItem(found.get(itemId(key)));
    if (product) products.set(product.id, product);
  }
  const lots = new Map<string, LotRecord>();
  for (const key of lotKeys) {
    const lot = lotCodec.fromItem(found.get(itemId(key)));
    if (lot) lots.set(lot.id, lot);
  }
  return { products, lots };
}

/** A page of a signed record's revisions, oldest first: a Query on the appointment's partition. */
export const listRevisions = (medspaId: string, appointmentId: string, page: PageRequest) =>
  queryPage(treatmentRevisionCodec, {
    partition: appointmentPk(medspaId, appointmentId),
    sort: { op: 'begins_with', value: TREATMENT_REVISION_PREFIX },
    consistent: true,
    ...page,
  });
