import { TransactionCanceledException, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { BucketEntry } from '../domain/claims';
import { AppError } from '../errors';
import type { Appointment, TreatmentRecord } from '../schemas/appointments';
import { ddb, tableName } from './client';
import { fromItem, versionedUpdate } from './entities';
import {
  appointmentKey,
  appointmentPk,
  appointmentTimeIndexKeys,
  appointmentTimeIndexPk,
  clientAppointmentsIndexKeys,
  claimKey,
  reminderKey,
  treatmentRecordKey,
  type ClaimedResource,
  type Key,
} from './keys';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Both time orderings of an appointment: the practice's (gsi1) and its client's (gsi2). */
const appointmentIndexKeys = (medspaId: string, clientId: string, scheduledAt: string, id: string) => ({
  ...appointmentTimeIndexKeys(medspaId, scheduledAt, id),
  ...clientAppointmentsIndexKeys(medspaId, clientId, scheduledAt, id),
});

export const appointmentItem = (appointment: Appointment) => ({
  ...appointmentKey(appointment.medspa_id, appointment.id),
  ...appointmentIndexKeys(appointment.medspa_id, appointment.client_id, appointment.scheduled_at, appointment.id),
  entity: 'APPOINTMENT',
  ...appointment,
});

/** The appointment with its treatment record: one Query on the appointment's partition. */
export async function getAppointmentWithRecord(medspaId: string, id: string) {
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': appointmentPk(medspaId, id) },
      ConsistentRead: true,
    }),
  );
  return {
    appointment: fromItem<Appointment>(Items.find((item) => item.sk === 'APPOINTMENT')),
    treatmentRecord: fromItem<TreatmentRecord>(Items.find((item) => item.sk === 'TREATMENT')),
  };
}

export async function getAppointment(medspaId: string, id: string): Promise<Appointment | null> {
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: appointmentKey(medspaId, id), ConsistentRead: true }));
  return fromItem<Appointment>(Item);
}

export async function putTreatmentRecord(medspaId: string, record: TreatmentRecord): Promise<void> {
  await ddb().send(
    new PutCommand({ TableName: tableName(), Item: { ...treatmentRecordKey(medspaId, record.appointment_id), entity: 'TREATMENT', ...record } }),
  );
}

export async function putReminderRequest(medspaId: string, reminder: { event_id: string; appointment_id: string; requested_at: string; requested_by: string }) {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...reminderKey(medspaId, reminder.appointment_id, reminder.requested_at, reminder.event_id), entity: 'REMINDER', medspa_id: medspaId, ...reminder },
    }),
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
export function toClaimBucket(resource: ClaimedResource, resourceId: string, hour: string, item: Record<string, unknown> | undefined): ClaimBucket {
  const entries = Object.entries((item?.entries ?? {}) as Record<string, { start: string; end: string }>).map(([appointment_id, interval]) => ({
    appointment_id,
    start: interval.start,
    end: interval.end,
  }));
  return { resource, resourceId, hour, entries, version: item ? Number(item.version) : null };
}

/** One bucket write: add (or move) this appointment's entry, conditioned on the version read; or remove it. */
export type ClaimChange =
  | { kind: 'add'; bucket: Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour' | 'version'>; appointmentId: string; start: string; end: string }
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
  const entry = { start: change.start, end: change.end };
  if (change.bucket.version === null) {
    return {
      Put: {
        TableName: tableName(),
        Item: { ...Key, entity: 'CLAIM', medspa_id: medspaId, resource: change.bucket.resource, resource_id: change.bucket.resourceId, entries: { [change.appointmentId]: entry }, version: 1 },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #entries.#id = :entry ADD #version :one',
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':entry': entry, ':one': 1, ':expected': change.bucket.version },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

// ---- Appointment writes, always in one transaction with their claims ----------------------

export type AppointmentWrite =
  | { kind: 'create'; appointment: Appointment }
  | { kind: 'update'; medspaId: string; id: string; clientId: string; expectedVersion: number; changes: Record<string, unknown>; remove?: string[]; now: string }
  | { kind: 'delete'; medspaId: string; id: string; expectedVersion: number };

function appointmentAction(write: AppointmentWrite): TransactItem {
  if (write.kind === 'create') {
    return { Put: { TableName: tableName(), Item: appointmentItem(write.appointment), ConditionExpression: 'attribute_not_exists(pk)' } };
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
        notFound: 'APPOINTMENT_NOT_FOUND',
        expectedVersion: write.expectedVersion,
        now: write.now,
        remove: write.remove,
        indexKeys: scheduledAt ? appointmentIndexKeys(write.medspaId, write.clientId, scheduledAt, write.id) : undefined,
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
  /** Real DynamoDB's TransactionConflict (never on DynamoDB Local): nothing written, try again. */
  | { ok: false; failed: 'conflict' };

/**
 * The appointment item and all its claim changes in ONE TransactWriteItems: either all commit or
 * none does. A failed condition comes back as a value naming what failed; anything else throws.
 */
export async function commitAppointment(
  write: AppointmentWrite,
  claims: ClaimChange[],
  medspaId: string,
  /** Other writes that must commit with this change (e.g. the client's visit statistics). */
  alongside: TransactItem[] = [],
): Promise<CommitResult> {
  const items = [appointmentAction(write), ...claims.map((change) => claimAction(medspaId, change)), ...alongside];
  if (items.length > 100) throw new AppError('VALIDATION_ERROR', 'The appointment touches too many time buckets');
  try {
    await ddb().send(new TransactWriteCommand({ TransactItems: items }));
    return { ok: true };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return { ok: false, failed: 'appointment' };
    const index = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    if (index > 0 && index <= claims.length) {
      const change = claims[index - 1];
      const old = reasons[index].Item ? unmarshallClaim(reasons[index].Item as Record<string, unknown>) : undefined;
      return {
        ok: false,
        failed: 'claim',
        resource: change.bucket.resource,
        current: old ? toClaimBucket(change.bucket.resource, change.bucket.resourceId, change.bucket.hour, old) : null,
      };
    }
    if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return { ok: false, failed: 'conflict' };
    throw error;
  }
}

/** CancellationReasons items come back in DynamoDB's wire format (the document client leaves errors alone). */
function unmarshallClaim(item: Record<string, unknown>): Record<string, unknown> {
  const wire = typeof item.version === 'object' && item.version !== null;
  return wire ? unmarshall(item as Record<string, AttributeValue>) : item;
}

// ---- Listing by time ---------------------------------------------------------------------

export interface TimeRangeQuery {
  medspaId: string;
  start: string;
  end: string;
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  limit: number;
  cursor?: string;
}

const utcMonthsBetween = (start: string, end: string): string[] => {
  const months: string[] = [];
  const cursor = new Date(`${start.slice(0, 7)}-01T00:00:00.000Z`);
  const last = new Date(Date.parse(end) - 1).toISOString().slice(0, 7);
  for (;;) {
    const month = cursor.toISOString().slice(0, 7);
    months.push(month);
    if (month >= last) return months;
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
};

interface RangeCursor {
  month: string;
  key: Record<string, string>;
}

const encodeRangeCursor = (cursor: RangeCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decodeRangeCursor(text: string | undefined, months: string[], medspaId: string): RangeCursor | undefined {
  if (!text) return undefined;
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as RangeCursor;
    if (months.includes(cursor.month) && cursor.key?.gsi1pk === appointmentTimeIndexPk(medspaId, cursor.month)) return cursor;
  } catch {
    // fall through
  }
  throw new AppError('VALIDATION_ERROR', 'The cursor is not valid', { details: [{ path: 'cursor', message: 'not a cursor from this list' }] });
}

/**
 * Appointments starting in [start, end), ordered by start, via gsi1 (a partition per UTC month):
 * a page reads month partitions in order and the cursor remembers where it stopped. `total`
 * is a COUNT Query over the same ranges, in parallel.
 */
export async function listAppointmentsByTime(query: TimeRangeQuery) {
  const months = utcMonthsBetween(query.start, query.end);
  const rangeOf = (month: string) => ({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
    FilterExpression: query.filter?.expression,
    ExpressionAttributeNames: query.filter?.names,
    ExpressionAttributeValues: {
      ':pk': appointmentTimeIndexPk(query.medspaId, month),
      ':from': query.start,
      // Keys are `${scheduled_at}#${id}`: everything starting before `end`.
      ':to': `${new Date(Date.parse(query.end) - 1).toISOString()}#\uffff`,
      ...query.filter?.values,
    },
  });

  const count = async () => {
    const totals = await Promise.all(
      months.map(async (month) => {
        let total = 0;
        let startKey: Record<string, unknown> | undefined;
        do {
          const result = await ddb().send(new QueryCommand({ ...rangeOf(month), Select: 'COUNT', ExclusiveStartKey: startKey }));
          total += result.Count ?? 0;
          startKey = result.LastEvaluatedKey;
        } while (startKey);
        return total;
      }),
    );
    return totals.reduce((a, b) => a + b, 0);
  };

  const page = async () => {
    const cursor = decodeRangeCursor(query.cursor, months, query.medspaId);
    const items: Record<string, unknown>[] = [];
    let monthIndex = cursor ? months.indexOf(cursor.month) : 0;
    let startKey: Record<string, unknown> | undefined = cursor?.key;
    // Read one item past the page to know whether another page exists.
    while (monthIndex < months.length && items.length <= query.limit) {
      const result = await ddb().send(
        new QueryCommand({ ...rangeOf(months[monthIndex]), Limit: query.limit + 1 - items.length, ExclusiveStartKey: startKey }),
      );
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
      if (!startKey) monthIndex += 1;
    }
    const pageItems = items.slice(0, query.limit);
    const last = pageItems[pageItems.length - 1];
    const nextCursor =
      items.length > query.limit && last
        ? encodeRangeCursor({
            month: String(last.scheduled_at).slice(0, 7),
            key: { pk: String(last.pk), sk: String(last.sk), gsi1pk: String(last.gsi1pk), gsi1sk: String(last.gsi1sk) },
          })
        : null;
    return { items: pageItems.map((item) => fromItem<Appointment>(item)!), nextCursor };
  };

  const [result, total] = await Promise.all([page(), count()]);
  return { ...result, total };
}
