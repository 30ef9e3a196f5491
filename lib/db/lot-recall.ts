import type { PageRequest } from '../crypto/cursor';
import type { LotExposureRecord, LotRecallNoticeRecord, LotRecord } from '../domain/records';
import { tableName } from './client';
import { lotCodec, lotExposureCodec, lotRecallNoticeCodec } from './codecs';
import { entityKey, lotExposuresPk } from './keys';
import { queryAll, queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { writeOne } from './transact';
import { versionedUpdate } from './update';

/** Exposures and recall of a lot (docs/decisions/0027): the lot's exposure partition, never a Scan. */

/** One page of a lot's exposures, by appointment id (one Query, plus a COUNT Query when there are more pages). */
export const listLotExposures = (
  medspaId: string,
  lotId: string,
  page: PageRequest,
): Promise<Page<LotExposureRecord>> =>
  queryPage(lotExposureCodec, { partition: lotExposuresPk(medspaId, lotId), consistent: true, ...page });

/** Every exposure of a lot, strongly consistent: read after the recall committed, so none that came before is missed. */
export const allLotExposures = (medspaId: string, lotId: string): Promise<LotExposureRecord[]> =>
  queryAll(lotExposureCodec, { partition: lotExposuresPk(medspaId, lotId), consistent: true });

export type RecallWriteResult =
  | { ok: true; lot: LotRecord }
  | { ok: false; failed: 'absent' | 'recalled' | 'version'; current: LotRecord | null };

/**
 * The lot turned recalled, on condition it is still active at the version read: of two recalls at
 * once exactly one commits (the other sees `recalled`); a stock move in between is `version` (read
 * again). One write, with the request's audit entry and Idempotency-Key marker.
 */
export async function commitRecall(
  lot: LotRecord,
  recall: { reason: string; reference: string | null },
  at: string,
  writes?: RequestWrites,
): Promise<RecallWriteResult> {
  const changes = {
    status: 'recalled',
    recalled_at: at,
    recall_reason: recall.reason,
    recall_reference: recall.reference,
  };
  const update = versionedUpdate(changes, { now: at, expectedVersion: lot.version });
  const outcome = await writeOne(
    {
      name: 'lot' as const,
      action: {
        Update: {
          TableName: tableName(),
          Key: entityKey(lot.medspa_id, 'LOT', lot.id),
          ...update,
          ConditionExpression: `${update.ConditionExpression} AND #lot_status = :active`,
          ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#lot_status': 'status' },
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':active': 'active' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    },
    writes,
  );
  if (outcome.ok)
    return { ok: true, lot: { ...lot, ...changes, status: 'recalled', version: lot.version + 1, updated_at: at } };
  const current = lotCodec.fromItem(outcome.failed[0]?.old ?? undefined);
  const failed = !current ? 'absent' : current.status === 'recalled' ? 'recalled' : 'version';
  return { ok: false, failed, current };
}

/**
 * A notice written once: a retried fan-out finds it there and leaves it as it is (no second
 * insert, so no second `client.lot_exposure`). One PutItem each, a few at a time.
 */
export async function putRecallNotices(notices: readonly LotRecallNoticeRecord[], parallel = 10): Promise<void> {
  for (let start = 0; start < notices.length; start += parallel)
    await Promise.all(
      notices.slice(start, start + parallel).map((notice) =>
        writeOne({
          name: 'notice' as const,
          action: {
            Put: {
              TableName: tableName(),
              Item: lotRecallNoticeCodec.toItem(notice),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        }),
      ),
    );
}
