/**
 * The raw floors of the bench: the DynamoDB calls an operation needs, made with the SDK's document
 * client and the same items, without our code around them. `npm run bench` times them against
 * the local HTTP server (latency), ./warm-cpu.ts against the built handlers (CPU).
 * Import after `benchEnvironment()`: the client reads the environment on first use.
 */
import { intervalOf, latestTatAllowed, tatHorizon, type BucketPolicy } from '../../lib/domain/rate-limit';
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/db/client';
import {
  appointmentKey,
  appointmentTimeIndexKeys,
  appointmentTimeIndexPk,
  auditKey,
  claimKey,
  holdKey,
  clientAppointmentsIndexKeys,
  entityKey,
  practiceKey,
  rateLimitKey,
  type Key,
} from '../../lib/db/keys';

const HOUR_MS = 3_600_000;
/** 'YYYY-MM-DDTHH' of the `h`-th hour from the hour of `iso`: a claim bucket's sort key. */
const hourAfter = (iso: string, h: number) =>
  new Date(Date.parse(`${iso.slice(0, 13)}:00:00Z`) + h * HOUR_MS).toISOString().slice(0, 13);

const batchGet = (keys: Key[]) =>
  ddb().send(new BatchGetCommand({ RequestItems: { [tableName()]: { ConsistentRead: true, Keys: keys } } }));

export interface RawCreate {
  medspaId: string;
  clientId: string;
  service: { id: string; duration_minutes: number; price_cents: number };
  providerId: string;
  /** The appointment's start (ISO, UTC). */
  start: string;
  /** The appointment's id; also names the fresh claim bucket written, so raw writes never collide. */
  id: string;
  /** The credential's client_id, for the audit entry. */
  caller: string;
}

/**
 * A create: one BatchGet of the practice, client, service, provider and the provider's claim
 * buckets of the 8 hours from the start (the longest appointment: its service is not known yet),
 * then one transaction of the same items ours writes: the appointment (both index keys), its claim
 * bucket, a check that the client still exists, and the audit entry.
 */
export async function rawCreateCalls(
  { medspaId, clientId, service, providerId, start, id, caller }: RawCreate,
  /** More writes in the same transaction (a confirm's move of its hold). */
  alongside: NonNullable<TransactWriteCommand['input']['TransactItems']> = [],
): Promise<void> {
  const hours = Math.ceil((Date.parse(start) + 8 * HOUR_MS) / HOUR_MS) - Math.floor(Date.parse(start) / HOUR_MS);
  await batchGet([
    practiceKey(medspaId),
    entityKey(medspaId, 'CLIENT', clientId),
    entityKey(medspaId, 'SERVICE', service.id),
    entityKey(medspaId, 'PROVIDER', providerId),
    ...Array.from({ length: hours }, (_, h) => claimKey(medspaId, 'PROVIDER', providerId, hourAfter(start, h))),
  ]);
  const now = new Date().toISOString();
  const end = new Date(Date.parse(start) + service.duration_minutes * 60_000).toISOString();
  const appointment = {
    entity: 'APPOINTMENT',
    id,
    medspa_id: medspaId,
    client_id: clientId,
    service_id: service.id,
    room_id: null,
    equipment_id: null,
    scheduled_at: start,
    end_at: end,
    provider_id: providerId,
    duration_minutes: service.duration_minutes,
    status: 'scheduled',
    notes: null,
    internal_notes: null,
    source: 'manual',
    price_cents: service.price_cents,
    cancelled_at: null,
    cancellation_reason: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const audit = {
    entity: 'AUDIT',
    medspa_id: medspaId,
    at: now,
    request_id: id,
    client_id: caller,
    role: 'admin',
    operation: 'createAppointment',
    method: 'POST',
    resource_id: id,
    outcome: 'success',
    status: 201,
  };
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...appointmentKey(medspaId, id),
              ...appointmentTimeIndexKeys(medspaId, start, id),
              ...clientAppointmentsIndexKeys(medspaId, clientId, start, id),
              ...appointment,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...claimKey(medspaId, 'PROVIDER', `raw-${providerId}`, id),
              entity: 'CLAIM',
              medspa_id: medspaId,
              resource: 'PROVIDER',
              resource_id: providerId,
              hour: start.slice(0, 13),
              entries: { [id]: { start, end } },
              version: 1,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: entityKey(medspaId, 'CLIENT', clientId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          },
        },
        { Put: { TableName: tableName(), Item: { ...auditKey(medspaId, now, id), ...audit } } },
        ...alongside,
      ],
    }),
  );
}

/**
 * A hold, then its confirm. The hold: one BatchGet of the practice, service, provider and claim
 * buckets, one transaction of the hold item, its claim bucket and the audit entry. The confirm:
 * a GetItem of the hold, then a create's two calls with the hold's move to `confirmed` in the
 * same transaction.
 */
export async function rawHoldConfirmCalls(create: RawCreate): Promise<void> {
  const { medspaId, service, providerId, start, id } = create;
  const holdId = `${id}-hold`;
  const hours = Math.ceil((Date.parse(start) + 8 * HOUR_MS) / HOUR_MS) - Math.floor(Date.parse(start) / HOUR_MS);
  await batchGet([
    practiceKey(medspaId),
    entityKey(medspaId, 'SERVICE', service.id),
    entityKey(medspaId, 'PROVIDER', providerId),
    ...Array.from({ length: hours }, (_, h) => claimKey(medspaId, 'PROVIDER', providerId, hourAfter(start, h))),
  ]);
  const now = new Date().toISOString();
  const end = new Date(Date.parse(start) + service.duration_minutes * 60_000).toISOString();
  const expires = new Date(Date.now() + 600_000).toISOString();
  await ddb().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...holdKey(medspaId, holdId),
              entity: 'HOLD',
              id: holdId,
              medspa_id: medspaId,
              service_id: service.id,
              provider_id: providerId,
              scheduled_at: start,
              end_at: end,
              hold_expires_at: expires,
              status: 'active',
              version: 1,
              created_at: now,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...claimKey(medspaId, 'PROVIDER', `raw-hold-${providerId}`, id),
              entity: 'CLAIM',
              entries: { [holdId]: { start, end, hold: true, expires_at: expires } },
              version: 1,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: { ...auditKey(medspaId, now, holdId), entity: 'AUDIT', operation: 'createHold', status: 201 },
          },
        },
      ],
    }),
  );
  await ddb().send(new GetCommand({ TableName: tableName(), Key: holdKey(medspaId, holdId), ConsistentRead: true }));
  await rawCreateCalls(create, [
    {
      Update: {
        TableName: tableName(),
        Key: holdKey(medspaId, holdId),
        UpdateExpression: 'SET #status = :confirmed, appointment_id = :id',
        ConditionExpression: '#status = :active AND hold_expires_at > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':confirmed': 'confirmed', ':id': id, ':active': 'active', ':now': now },
      },
    },
  ]);
}

/** The client, service and provider of each appointment on a page, once each. */
const relatedKeys = (medspaId: string, items: Record<string, unknown>[]) => [
  ...new Map(
    items
      .flatMap((a) => [
        entityKey(medspaId, 'CLIENT', a.client_id as string),
        entityKey(medspaId, 'SERVICE', a.service_id as string),
        entityKey(medspaId, 'PROVIDER', a.provider_id as string),
      ])
      .map((key) => [`${key.pk}|${key.sk}`, key]),
  ).values(),
];

/**
 * A page of appointments between two instants of one month (one time-index partition), and one
 * BatchGet of their clients, services and providers. `count` adds the range's total (a second
 * Query, in parallel); `practice` first reads the practice (for its zone), as a multi-day list does.
 */
export async function rawListPage(
  medspaId: string,
  from: string,
  to: string,
  options: { limit: number; count?: boolean; practice?: boolean },
): Promise<void> {
  if (options.practice)
    await ddb().send(new GetCommand({ TableName: tableName(), Key: practiceKey(medspaId), ConsistentRead: true }));
  const range = {
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :a AND :b',
    ExpressionAttributeValues: { ':pk': appointmentTimeIndexPk(medspaId, from.slice(0, 7)), ':a': from, ':b': to },
  };
  const [page] = await Promise.all([
    ddb().send(new QueryCommand({ ...range, Limit: options.limit + 1 })),
    ...(options.count ? [ddb().send(new QueryCommand({ ...range, Select: 'COUNT' }))] : []),
  ]);
  await batchGet(relatedKeys(medspaId, page.Items ?? []));
}

/** A provider's slots on a date: one BatchGet of the practice, the provider and 50 claim buckets from 10:00 UTC the day before. */
export const rawSlots = (medspaId: string, providerId: string, date: string) => {
  const from = new Date(Date.parse(`${date}T10:00:00Z`) - 24 * HOUR_MS).toISOString();
  return batchGet([
    practiceKey(medspaId),
    entityKey(medspaId, 'PROVIDER', providerId),
    ...Array.from({ length: 50 }, (_, h) => claimKey(medspaId, 'PROVIDER', providerId, hourAfter(from, h))),
  ]);
};

/**
 * An availability search for a service, as it must be made (each round needs the one before): one
 * BatchGet of the practice (its zone) and the service (its providers), one of the providers (their
 * working hours), then the providers' claim buckets of the hours each works, one BatchGet per 100
 * keys, in parallel.
 */
export async function rawSearch(
  medspaId: string,
  serviceId: string,
  plans: { providerId: string; hours: string[] }[],
): Promise<void> {
  await batchGet([practiceKey(medspaId), entityKey(medspaId, 'SERVICE', serviceId)]);
  await batchGet(plans.map((plan) => entityKey(medspaId, 'PROVIDER', plan.providerId)));
  const keys = plans.flatMap((plan) => plan.hours.map((hour) => claimKey(medspaId, 'PROVIDER', plan.providerId, hour)));
  await Promise.all(
    Array.from({ length: Math.ceil(keys.length / 100) }, (_, i) => batchGet(keys.slice(i * 100, (i + 1) * 100))),
  );
}

/** One entity by id: one strongly consistent GetItem. */
export const rawGetEntity = (medspaId: string, type: 'CLIENT', id: string) =>
  ddb().send(new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, type, id), ConsistentRead: true }));

/**
 * A credential's rate-limit bucket (a bucket of its own): the request chain's one UpdateItem per
 * request, as lib/db/rate-limits.ts writes it: the idle form first, then the busy one (an
 * increment of `tat` under a condition), whichever the state last seen calls for, with the
 * product's bucket settings (the bench's are too high to refuse it).
 */
export function rawRateLimit(medspaId: string, clientId: string, policy: BucketPolicy): () => Promise<void> {
  let tat: number | undefined;
  const interval = intervalOf(policy);
  return async () => {
    const now = Date.now();
    const idle = tat === undefined || tat <= now;
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rateLimitKey(medspaId, clientId),
        UpdateExpression: `SET #tat = ${idle ? ':next' : '#tat + :interval'}, #entity = :entity, #expires = :expires`,
        ConditionExpression: idle
          ? 'attribute_not_exists(#tat) OR #tat <= :now OR #tat > :horizon'
          : '#tat > :now AND #tat <= :latest',
        ExpressionAttributeNames: { '#tat': 'tat', '#entity': 'entity', '#expires': 'expires_at' },
        ExpressionAttributeValues: {
          ':now': now,
          ...(idle
            ? { ':next': now + interval, ':horizon': tatHorizon(now, policy) }
            : { ':interval': interval, ':latest': latestTatAllowed(now, policy) }),
          ':entity': 'RATE_LIMIT',
          ':expires': Math.floor(now / 1000) + 3600,
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    tat = Number(Attributes?.tat);
  };
}
