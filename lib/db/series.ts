import type { AppointmentRecord, SeriesRecord } from '../domain/records';
import { bucketIdsFor } from '../domain/claims';
import { claimBucketKey, type TransactItem } from './appointments';
import type { ClaimRange } from './booking-reads';
import { tableName } from './client';
import { appointmentCodec, seriesCodec } from './codecs';
import { itemId, readItem, readItems } from './key-reads';
import { appointmentKey, seriesKey } from './keys';
import { newItemAction } from './put-new';

/**
 * Series (API reference, series; docs/decisions/0025): the series item, whose move from `pending`
 * to `committed` is the one write that makes every occurrence real at once, and the actions around it.
 */

export const getSeries = async (medspaId: string, id: string): Promise<SeriesRecord | null> =>
  seriesCodec.fromItem(await readItem(seriesKey(medspaId, id)));

/** The series' appointments that exist, by id (one strong BatchGetItem per 100). */
export async function readSeriesAppointments(medspaId: string, ids: readonly string[]): Promise<AppointmentRecord[]> {
  const found = await readItems(ids.map((id) => appointmentKey(medspaId, id)));
  return ids.flatMap((id) => {
    const appointment = appointmentCodec.fromItem(found.get(itemId(appointmentKey(medspaId, id))));
    return appointment ? [appointment] : [];
  });
}

/** A new series, pending: its id is new, so it must not exist. */
export const seriesPutAction = (series: SeriesRecord): TransactItem => newItemAction(seriesCodec.toItem(series));

/** Pending claims are written (or taken back) only while their series is still pending. */
export const seriesPendingCheck = (medspaId: string, id: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: seriesKey(medspaId, id),
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending' },
  },
});

/**
 * The commit point: pending -> committed, on condition its claims still have at least the margin
 * of life left at `notAfter` (an ISO instant: the stored one has the same form, so the strings
 * compare as the instants do). The item's TTL goes with it: a committed series is kept.
 */
export const seriesCommitAction = (medspaId: string, id: string, notAfter: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: seriesKey(medspaId, id),
    UpdateExpression: 'SET #status = :committed, #updated = :now REMOVE #ttl ADD #version :one',
    ConditionExpression: '#status = :pending AND #until > :at',
    ExpressionAttributeNames: {
      '#status': 'status',
      '#updated': 'updated_at',
      '#ttl': 'expires_at',
      '#version': 'version',
      '#until': 'claims_until',
    },
    ExpressionAttributeValues: {
      ':committed': 'committed',
      ':pending': 'pending',
      ':now': now,
      ':one': 1,
      ':at': notAfter,
    },
  },
});

/** A series that did not commit goes (its claims were taken back first). */
export const seriesDeleteAction = (medspaId: string, id: string): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: seriesKey(medspaId, id),
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pending': 'pending' },
  },
});

/** A committed series' appointment, put with it: new id, so it must not exist. */
export const seriesAppointmentPut = (appointment: AppointmentRecord): TransactItem =>
  newItemAction(appointmentCodec.toItem(appointment));

/**
 * After the commit: each claim of the appointment rewritten as a plain, permanent entry (no
 * expiry, no series), where the series' entry still is (a cancel or a move since may have replaced it). Only a
 * shortcut: readers already count a committed series' claims as permanent (lib/db/booking-reads.ts).
 */
export const finalizeClaimActions = (medspaId: string, appointmentId: string, claims: ClaimRange[]): TransactItem[] =>
  claims.flatMap((claim) =>
    bucketIdsFor(claim.start, claim.end).map((hour) => ({
      Update: {
        TableName: tableName(),
        Key: claimBucketKey(medspaId, { resource: claim.resource, resourceId: claim.resourceId, hour }),
        UpdateExpression: 'SET #entries.#id = :entry ADD #version :one',
        // Still the series' own entry: not one a move or a cancel and rebooking has written since.
        ConditionExpression: 'attribute_exists(#entries.#id.#series)',
        ExpressionAttributeNames: {
          '#entries': 'entries',
          '#id': appointmentId,
          '#series': 'series_id',
          '#version': 'version',
        },
        ExpressionAttributeValues: { ':entry': { start: claim.start, end: claim.end }, ':one': 1 },
      },
    })),
  );
