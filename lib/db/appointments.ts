import type { BucketEntry } from '../domain/claims';
import type { AppointmentRecord, ClaimBucketRecord, ReminderRecord, TreatmentRecord } from '../domain/records';
import { tableName } from './client';
import {
  appointmentCodec,
  appointmentListEntryCodec,
  appointmentIndexKeys,
  claimBucketCodec,
  reminderCodec,
  treatmentRecordCodec,
} from './codecs';
import { readItem } from './key-reads';
import { queryMonthPartitions, type MonthPartitionQuery } from './month-partitions';
import { queryOnce, type Decoder } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, writeOne, type NamedAction, type TransactItem } from './transact';
import { versionedUpdate } from './update';
import {
  appointmentKey,
  appointmentPk,
  appointmentTimeIndexPk,
  claimKey,
  type ClaimedResource,
  type Key,
} from './keys';

export type { TransactItem } from './transact';
export type { ClaimedResource };

/** A treatment record as answered: its practice is the caller's. */
export type PublicTreatmentRecord = Omit<TreatmentRecord, 'medspa_id'>;

export const withoutPractice = (record: TreatmentRecord | null): PublicTreatmentRecord | null => {
  if (!record) return null;
  const { medspa_id: _medspaId, ...fields } = record;
  return fields;
};

/** The appointment and its treatment record among an appointment partition's items (its reminder items are skipped). */
const appointmentPartitionCodec: Decoder<
  { kind: 'APPOINTMENT'; appointment: AppointmentRecord } | { kind: 'TREATMENT'; treatmentRecord: TreatmentRecord }
> = {
  fromItem: (item) => {
    if (item?.sk === 'APPOINTMENT') return { kind: 'APPOINTMENT', appointment: appointmentCodec.fromItem(item)! };
    if (item?.sk === 'TREATMENT') return { kind: 'TREATMENT', treatmentRecord: treatmentRecordCodec.fromItem(item)! };
    return null;
  },
};

/** The appointment with its treatment record: one Query on the appointment's partition. */
export async function getAppointmentWithRecord(medspaId: string, id: string) {
  const found = await queryOnce(appointmentPartitionCodec, {
    partition: appointmentPk(medspaId, id),
    consistent: true,
  });
  return {
    appointment: found.find((item) => item.kind === 'APPOINTMENT')?.appointment ?? null,
    treatmentRecord: withoutPractice(found.find((item) => item.kind === 'TREATMENT')?.treatmentRecord ?? null),
  };
}

export async function getAppointment(medspaId: string, id: string): Promise<AppointmentRecord | null> {
  return appointmentCodec.fromItem(await readItem(appointmentKey(medspaId, id)));
}

/** A reminder request (the stream makes it `appointment.reminder`), with the request's writes when it has any to commit. */
export async function putReminderRequest(reminder: ReminderRecord, writes?: RequestWrites): Promise<void> {
  await writeOne(
    { name: 'reminder', action: { Put: { TableName: tableName(), Item: reminderCodec.toItem(reminder) } } },
    writes,
  );
}

// ---- Time claims -------------------------------------------------------------------------

export interface ClaimBucket {
  resource: ClaimedResource;
  resourceId: string;
  hour: string;
  entries: BucketEntry[];
  /** null: the bucket item does not exist yet. */
  version: number | null;
}

export const claimBucketKey = (medspaId: string, bucket: Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour'>): Key =>
  claimKey(medspaId, bucket.resource, bucket.resourceId, bucket.hour);

/** A bucket item as read (or absent), with entries as a list. */
export function toClaimBucket(
  resource: ClaimedResource,
  resourceId: string,
  hour: string,
  item: Record<string, unknown> | undefined,
): ClaimBucket {
  return claimBucketOf(resource, resourceId, hour, claimBucketCodec.fromItem(item));
}

/** A decoded bucket record (or null: none stored), with entries as a list. */
export function claimBucketOf(
  resource: ClaimedResource,
  resourceId: string,
  hour: string,
  bucket: ClaimBucketRecord | null,
): ClaimBucket {
  const entries = Object.entries(bucket?.entries ?? {}).map(([appointment_id, interval]) => ({
    appointment_id,
    start: interval.start,
    end: interval.end,
    ...(interval.hold ? { hold: true as const, expires_at: interval.expires_at } : {}),
    // A pending series' claim (docs/decisions/0025): it expires unless its series committed.
    ...(interval.series_id ? { series_id: interval.series_id, expires_at: interval.expires_at } : {}),
  }));
  return { resource, resourceId, hour, entries, version: bucket ? bucket.version : null };
}

/**
 * One bucket write: add (or move) this appointment's (or hold's) entry, conditioned on the version
 * read, removing the entries in `drop` (expired holds, the hold an appointment replaces); or remove it.
 */
export type ClaimChange =
  | {
      kind: 'add';
      bucket: Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour' | 'version'>;
      appointmentId: string;
      start: string;
      end: string;
      /** The entry is a hold's, holding nothing from `expires_at` on. */
      hold?: { expires_at: string };
      /** The entry is a pending series' (docs/decisions/0025): live until `expires_at` unless the series committed. */
      series?: { id: string; expires_at: string };
      drop?: readonly string[];
    }
  | { kind: 'remove'; bucket: Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour'>; appointmentId: string };

function claimAction(medspaId: string, change: ClaimChange): TransactItem {
  const Key = claimBucketKey(medspaId, change.bucket);
  const names = { '#entries': 'entries', '#id': change.appointmentId, '#version': 'version' };
  if (change.kind === 'remove') {
    // Removing never creates an overlap, so it needs no read and no condition; the version bump
    // still makes a concurrent booking that read the old bucket re-check.
    return {
      Update: {
        TableName: tableName(),
        Key,
        UpdateExpression: 'REMOVE #entries.#id ADD #version :one',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  const entry = {
    start: change.start,
    end: change.end,
    ...(change.hold ? { hold: true as const, expires_at: change.hold.expires_at } : {}),
    ...(change.series ? { series_id: change.series.id, expires_at: change.series.expires_at } : {}),
  };
  if (change.bucket.version === null) {
    return {
      Put: {
        TableName: tableName(),
        Item: claimBucketCodec.toItem({
          medspa_id: medspaId,
          resource: change.bucket.resource,
          resource_id: change.bucket.resourceId,
          hour: change.bucket.hour,
          entries: { [change.appointmentId]: entry },
          version: 1,
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }
  const drop = (change.drop ?? []).filter((id) => id !== change.appointmentId);
  const dropNames = Object.fromEntries(drop.map((id, index) => [`#d${index}`, id]));
  const remove = drop.length ? ` REMOVE ${drop.map((_, index) => `#entries.#d${index}`).join(', ')}` : '';
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: `SET #entries.#id = :entry${remove} ADD #version :one`,
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: { ...names, ...dropNames },
      ExpressionAttributeValues: { ':entry': entry, ':one': 1, ':expected': change.bucket.version },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

// ---- Appointment writes, always in one transaction with their claims ----------------------

export type AppointmentWrite =
  | { kind: 'create'; appointment: AppointmentRecord }
  | {
      kind: 'update';
      medspaId: string;
      id: string;
      clientId: string;
      expectedVersion: number;
      changes: Record<string, unknown>;
      remove?: string[];
      now: string;
    }
  | { kind: 'delete'; medspaId: string; id: string; expectedVersion: number };

function appointmentAction(write: AppointmentWrite): TransactItem {
  if (write.kind === 'create') {
    return {
      Put: {
        TableName: tableName(),
        Item: appointmentCodec.toItem(write.appointment),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  const Key = appointmentKey(write.medspaId, write.id);
  if (write.kind === 'delete') {
    return {
      Delete: {
        TableName: tableName(),
        Key,
        ConditionExpression: 'attribute_exists(pk) AND #version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': write.expectedVersion },
      },
    };
  }
  const scheduledAt = write.changes.scheduled_at as string | undefined;
  return {
    Update: {
      TableName: tableName(),
      Key,
      ...versionedUpdate(write.changes, {
        expectedVersion: write.expectedVersion,
        now: write.now,
        remove: write.remove,
        indexKeys: scheduledAt
          ? appointmentIndexKeys(write.medspaId, write.clientId, scheduledAt, write.id)
          : undefined,
      }),
    },
  };
}

export type CommitResult =
  | { ok: true }
  /** Someone changed the appointment since it was read. */
  | { ok: false; failed: 'appointment' }
  /** A bucket changed since it was read; `current` is its item now (when DynamoDB returned it). */
  | { ok: false; failed: 'claim'; resource: ClaimedResource; current: ClaimBucket | null }
  /** The condition of `alongside[index]` failed. */
  | { ok: false; failed: 'alongside'; index: number };

type ClaimAction = NamedAction<'claim'> & { change: ClaimChange };
type AlongsideAction = NamedAction<'alongside'> & { index: number };

/**
 * The appointment item and all its claim changes in ONE TransactWriteItems: either all commit or
 * none does. A failed condition comes back as a value naming what failed; anything else throws.
 */
export const commitAppointment = (
  write: AppointmentWrite,
  claims: ClaimChange[],
  medspaId: string,
  /** Other writes that must commit with this change (e.g. the client's visit statistics). */
  alongside: TransactItem[] = [],
  writes?: RequestWrites,
): Promise<CommitResult> => commitWithClaims(appointmentAction(write), claims, medspaId, alongside, writes);

/**
 * The claiming item's write (an appointment's, or a hold's: lib/db/holds.ts) and its claim changes
 * in ONE transaction; a failure of the first action is reported as `appointment`.
 */
export async function commitWithClaims(
  primary: TransactItem,
  claims: ClaimChange[],
  medspaId: string,
  alongside: TransactItem[] = [],
  writes?: RequestWrites,
): Promise<CommitResult> {
  const outcome = await transact<NamedAction<'appointment'> | ClaimAction | AlongsideAction>(
    [
      { name: 'appointment', action: primary },
      ...claims.map((change) => ({ name: 'claim' as const, change, action: claimAction(medspaId, change) })),
      ...alongside.map((action, index) => ({ name: 'alongside' as const, index, action })),
    ],
    writes,
  );
  if (outcome.ok) return outcome;
  const failed = firstFailed(outcome.failed, ['appointment', 'claim', 'alongside'])!;
  if (failed.name === 'appointment') return { ok: false, failed: 'appointment' };
  if (failed.name === 'alongside') return { ok: false, failed: 'alongside', index: failed.index };
  const { bucket } = failed.change;
  return {
    ok: false,
    failed: 'claim',
    resource: bucket.resource,
    current: failed.old ? toClaimBucket(bucket.resource, bucket.resourceId, bucket.hour, failed.old) : null,
  };
}

// ---- Listing by time ---------------------------------------------------------------------

/** A page of one practice's month partitions, oldest first. */
export type TimeRangeQuery = Omit<MonthPartitionQuery, 'partitionOf' | 'descending'> & { medspaId: string };

/**
 * Appointments starting in [start, end), ordered by start: their list entries (what the list
 * shows and filters on) from gsi1n, gsi1's partitions (one per UTC month) narrowed.
 */
export const listAppointmentsByTime = ({ medspaId, ...range }: TimeRangeQuery) =>
  queryMonthPartitions(appointmentListEntryCodec, {
    ...range,
    index: 'gsi1n',
    partitionOf: (month) => appointmentTimeIndexPk(medspaId, month),
  });
