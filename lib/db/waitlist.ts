import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../crypto/cursor';
import type {
  WaitlistEntryRecord,
  WaitlistFreedRecord,
  WaitlistDueRecord,
  WaitlistOfferRecord,
} from '../domain/records';
import { ddb, tableName } from './client';
import {
  itemKeyCodec,
  waitlistEntryCodec,
  waitlistFreedCodec,
  waitlistDueCodec,
  waitlistOfferCodec,
  waitlistSweepCodec,
} from './codecs';
import { ignoreFailedCondition } from './conditions';
import { readItem } from './key-reads';
import {
  entityKey,
  waitingIndexPk,
  waitlistByServiceIndexPk,
  waitlistFreedKey,
  waitlistInUseKey,
  waitlistDueKey,
  waitlistDuePk,
  waitlistOfferKey,
  waitlistSweepCheckpointKey,
} from './keys';
import { sweepCheckpoint } from './minute-partitions';
import { listEntities, queryAll, queryOnce, queryPage, where, type Page } from './query';
import { newItemAction } from './put-new';
import type { TransactItem } from './transact';

/**
 * The waitlist's items (docs/decisions/0032): entries (the `WAITLIST` collection; by service on
 * gsi1, and on the sparse waiting index gsi2 while `waiting`), freed times, offers by hold, and
 * holds due to expire by minute. An entry or a freed time is written whole on condition of the
 * version read, so its index keys follow its status and a lost race is always seen.
 */

export const getWaitlistEntry = async (medspaId: string, id: string): Promise<WaitlistEntryRecord | null> =>
  waitlistEntryCodec.fromItem(await readItem(entityKey(medspaId, 'WAITLIST', id)));

/** A new entry (its id is new). */
export const newEntryAction = (entry: WaitlistEntryRecord): TransactItem =>
  newItemAction(waitlistEntryCodec.toItem(entry));

/** The whole item written on condition it is still the version read (or, for a new one, absent). */
const versionedPut = (item: Record<string, unknown>, readVersion: number | null): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: item,
    ...(readVersion === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: '#version = :read',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':read': readVersion },
        }),
  },
});

/** The entry as changed (its version one past the one read), on condition nobody changed it since. */
export const entryChangeAction = (next: WaitlistEntryRecord): TransactItem =>
  versionedPut(waitlistEntryCodec.toItem(next), next.version - 1);

/** A page of the practice's entries: of one service (gsi1, oldest first) or all (by id); `status` as stored. */
export function listWaitlistEntries(
  medspaId: string,
  filters: { serviceId?: string; status?: WaitlistEntryRecord['status'] },
  page: PageRequest,
): Promise<Page<WaitlistEntryRecord>> {
  const filter = where<WaitlistEntryRecord>({ status: filters.status });
  if (!filters.serviceId) return listEntities(waitlistEntryCodec, medspaId, page, filter);
  return queryPage(waitlistEntryCodec, {
    partition: waitlistByServiceIndexPk(medspaId, filters.serviceId),
    index: 'gsi1',
    filter,
    ...page,
  });
}

/** The oldest `limit` entries waiting for a time of a service (the sparse waiting index): one Query. */
export const oldestWaiting = (medspaId: string, serviceId: string, limit: number): Promise<WaitlistEntryRecord[]> =>
  queryOnce(waitlistEntryCodec, { partition: waitingIndexPk(medspaId, serviceId), index: 'gsi2', limit });

/** Marks the practice as having a waitlist (in a new entry's transaction; the first mark's time stays). */
export const waitlistInUseAction = (medspaId: string, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: waitlistInUseKey(medspaId),
    UpdateExpression: 'SET #medspa = :medspa, #since = if_not_exists(#since, :at)',
    ExpressionAttributeNames: { '#medspa': 'medspa_id', '#since': 'since' },
    ExpressionAttributeValues: { ':medspa': medspaId, ':at': at },
  },
});

/** Whether the practice has ever had a waitlist entry (strongly: an entry made a moment ago counts). */
export const waitlistInUse = async (medspaId: string): Promise<boolean> =>
  itemKeyCodec.fromItem(await readItem(waitlistInUseKey(medspaId))) !== null;

// ---- Freed times and offers ------------------------------------------------------------------------

export const getFreed = async (medspaId: string, id: string): Promise<WaitlistFreedRecord | null> =>
  waitlistFreedCodec.fromItem(await readItem(waitlistFreedKey(medspaId, id)));

/** Records a freed time once: a redelivered cause finds it there (and changes nothing). */
export async function putFreedOnce(freed: WaitlistFreedRecord): Promise<void> {
  await ddb()
    .send(
      new PutCommand({
        TableName: tableName(),
        Item: waitlistFreedCodec.toItem(freed),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    .catch(ignoreFailedCondition);
}

/** The freed time as changed, on condition of the version read. */
export const freedChangeAction = (next: WaitlistFreedRecord): TransactItem =>
  versionedPut(waitlistFreedCodec.toItem(next), next.version - 1);

export const getOfferOfHold = async (medspaId: string, holdId: string): Promise<WaitlistOfferRecord | null> =>
  waitlistOfferCodec.fromItem(await readItem(waitlistOfferKey(medspaId, holdId)));

export const newOfferAction = (offer: WaitlistOfferRecord): TransactItem =>
  newItemAction(waitlistOfferCodec.toItem(offer));

// ---- Holds and entries due to expire, by minute ------------------------------------------------------

/** Arms an expiry in its minute (idempotent: the same hold or entry arms the same item). */
export async function putWaitlistDue(due: WaitlistDueRecord): Promise<void> {
  await ddb().send(new PutCommand({ TableName: tableName(), Item: waitlistDueCodec.toItem(due) }));
}

/** An entry's expiry armed in the entry's own transaction. */
export const waitlistDueAction = (due: WaitlistDueRecord): TransactItem => ({
  Put: { TableName: tableName(), Item: waitlistDueCodec.toItem(due) },
});

/** Every expiry due in one minute, all practices: one Query of that minute's partition. */
export const waitlistDueIn = (minute: string): Promise<WaitlistDueRecord[]> =>
  queryAll(waitlistDueCodec, { partition: waitlistDuePk(minute), consistent: true });

export async function deleteWaitlistDue(due: WaitlistDueRecord): Promise<void> {
  await ddb().send(
    new DeleteCommand({ TableName: tableName(), Key: waitlistDueKey(due.due_minute, due.medspa_id, due.kind, due.id) }),
  );
}

const waitlistSweep = /* @__PURE__ */ sweepCheckpoint(waitlistSweepCodec, waitlistSweepCheckpointKey);
export const readWaitlistSweepCheckpoint = waitlistSweep.read;
export const advanceWaitlistSweepCheckpoint = waitlistSweep.advance;
