import { pageRequest } from '../crypto/cursor';
import { batchGetEntities } from '../db/batch';
import { allLotExposures, commitRecall, listLotExposures, putRecallNotices } from '../db/lot-recall';
import { findLot } from '../db/lots';
import type { RequestWrites } from '../db/request-writes';
import { contactOf, recallNotices } from '../domain/recall';
import type { ClientRecord, LotRecallNoticeRecord, LotRecord } from '../domain/records';
import { AppError } from '../errors';
import type { Lot, LotExposure, RecallLotInput } from '../schemas/products';
import { toListResult, type ListResult } from './list-result';

/**
 * Exposures and recall of a lot (API reference, clinical records: recall; docs/decisions/0027).
 * The recall's request flips the lot (its stream record is `lot.recalled`); the stream consumer
 * then writes one notice per exposed client (`fanOutRecall`), each a `client.lot_exposure`.
 */

const toLot = ({ medspa_id: _medspaId, ...lot }: LotRecord): Lot => lot;

const lotRecalled = (lot: LotRecord) =>
  new AppError('LOT_RECALLED', `Lot ${lot.lot_number} was already recalled on ${lot.recalled_at}`);

/** Clients as stored, deleted (anonymised) ones too: a recall names everyone it reached. */
async function clientsById(medspaId: string, ids: readonly string[]): Promise<Map<string, ClientRecord>> {
  const unique = [...new Set(ids)];
  const found = await batchGetEntities(
    medspaId,
    unique.map((id) => ({ type: 'CLIENT' as const, id })),
  );
  const clients = new Map<string, ClientRecord>();
  for (const id of unique) {
    const client = found.get('CLIENT', id);
    if (client) clients.set(id, client);
  }
  return clients;
}

/**
 * A page of the lot's exposures, by appointment: the lot's GetItem and the page's Query at once
 * (plus a COUNT Query when there are more pages), then one BatchGetItem of the page's clients.
 */
export async function listExposures(
  medspaId: string,
  lotId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<LotExposure>> {
  const page = pageRequest(medspaId, 'lot-exposures', { ...query, lot_id: lotId });
  const [lot, exposures] = await Promise.all([findLot(medspaId, lotId), listLotExposures(medspaId, lotId, page)]);
  if (!lot) throw new AppError('LOT_NOT_FOUND');
  const clients = await clientsById(
    medspaId,
    exposures.items.map((exposure) => exposure.client_id),
  );
  return toListResult({
    ...exposures,
    items: exposures.items.map((exposure) => ({
      client: contactOf(exposure.client_id, clients.get(exposure.client_id)),
      appointment_id: exposure.appointment_id,
      treated_at: exposure.treated_at,
      provider_id: exposure.provider_id,
      quantity: exposure.quantity,
    })),
  });
}

/** A stock move between the read and the write moves the version: read again, a few times. */
const RECALL_ATTEMPTS = 5;

/**
 * The lot turned recalled on condition it is active: of two recalls at once one answers 200, the
 * other 409 LOT_RECALLED, and only the one change reaches the stream (one event set).
 */
export async function recallLot(
  medspaId: string,
  lotId: string,
  input: RecallLotInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Lot> {
  for (let attempt = 0; attempt < RECALL_ATTEMPTS; attempt++) {
    const lot = await findLot(medspaId, lotId);
    if (!lot) throw new AppError('LOT_NOT_FOUND');
    if (lot.status === 'recalled') throw lotRecalled(lot);
    const result = await commitRecall(
      lot,
      { reason: input.reason, reference: input.reference ?? null },
      now.toISOString(),
      writes,
    );
    if (result.ok) return toLot(result.lot);
    if (result.failed === 'absent') throw new AppError('LOT_NOT_FOUND');
    if (result.failed === 'recalled') throw lotRecalled(result.current!);
  }
  throw new AppError('CONFLICT', 'The lot is busy with concurrent stock moves; try again');
}

/**
 * The stream consumer's part of a recall: every exposure of the lot (read strongly after the
 * recall committed; a treatment record after it is refused by the lot's condition, so none is
 * missed), the exposed clients, and one notice per client, written once (a retry rewrites none).
 */
export async function fanOutRecall(lot: LotRecord): Promise<LotRecallNoticeRecord[]> {
  const exposures = await allLotExposures(lot.medspa_id, lot.id);
  const clients = await clientsById(
    lot.medspa_id,
    exposures.map((exposure) => exposure.client_id),
  );
  const notices = recallNotices(lot, exposures, clients);
  await putRecallNotices(notices);
  return notices;
}
