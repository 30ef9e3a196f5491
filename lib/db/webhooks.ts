import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../crypto/cursor';
import { isEntityId } from '../domain/ids';
import type { DeliveryRecord, WebhookRecord, WebhookRetryDueRecord } from '../domain/records';
import { ddb, tableName } from './client';
import { ignoreFailedCondition } from './conditions';
import { itemId, readItems } from './key-reads';
import { deliveryCodec, webhookCodec, webhookFirstFailureCodec } from './codecs';
import { getEntity } from './batch';
import {
  collectionPk,
  entityKey,
  webhookDeliveriesPk,
  webhookDeliveryKey,
  webhookDeliveryLookupIndexKeys,
  type Key,
} from './keys';
import { putNew } from './put-new';
import { countItems, listEntities, queryAll, queryOnce, queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { transact, writeOne } from './transact';
import { webhookRetryDuePut } from './webhook-retries';
import { afterUpdate, deleteEntity, versionedFailure, versionedUpdate, type UpdateOutcome } from './update';

/**
 * Webhook subscriptions (the practice's `WEBHOOK` collection) and their delivery logs (a partition
 * per subscription, one item per attempt, expiring after 30 days).
 */

// ---------------------------------------------------------------------------------------------
// Subscriptions

export const findWebhook = (medspaId: string, id: string) =>
  isEntityId(id) ? getEntity(webhookCodec, medspaId, id) : Promise.resolve(null);

export const putNewWebhook = (webhook: WebhookRecord, writes?: RequestWrites) => putNew(webhookCodec, webhook, writes);

export const listWebhooks = (medspaId: string, page: PageRequest): Promise<Page<WebhookRecord>> =>
  listEntities(webhookCodec, medspaId, page);

export const countWebhooks = (medspaId: string) => countItems({ partition: collectionPk(medspaId, 'WEBHOOK') });

/**
 * Every subscription of a practice: ONE Query on its collection (a practice has at most a few
 * dozen, far under a page), strongly consistent so a subscription takes events from its creation.
 */
export async function practiceWebhooks(medspaId: string): Promise<WebhookRecord[]> {
  return queryAll(webhookCodec, { partition: collectionPk(medspaId, 'WEBHOOK'), consistent: true });
}

/**
 * A change of the subscription as read (`current`), on its version; `remove` clears attributes.
 * With the request's writes (a keyed POST's Idempotency-Key marker) in the same round trip.
 */
export async function commitWebhookChange(
  current: WebhookRecord,
  changes: Record<string, unknown>,
  options: { now: string; remove?: string[]; writes?: RequestWrites },
): Promise<UpdateOutcome<WebhookRecord>> {
  const outcome = await writeOne(
    {
      name: 'webhook',
      action: {
        Update: {
          TableName: tableName(),
          Key: entityKey(current.medspa_id, 'WEBHOOK', current.id),
          ...versionedUpdate(changes, { expectedVersion: current.version, now: options.now, remove: options.remove }),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    },
    options.writes,
  );
  return outcome.ok
    ? { ok: true, item: afterUpdate(current, changes, options.now, options.remove) }
    : { ok: false, failed: versionedFailure(outcome.failed[0].old) };
}

export const deleteWebhook = (medspaId: string, id: string, expectedVersion?: number) =>
  deleteEntity(medspaId, 'WEBHOOK', id, expectedVersion);

/*
 * Delivery health. These writes leave `version` alone: they are the service's bookkeeping, and a
 * caller's If-Match must not go stale because a delivery happened. Each is conditioned on the
 * subscription existing, so a delivery finishing after a DELETE never brings it back.
 */

/** A success: the subscription is healthy again. */
export async function recordDeliverySuccess(medspaId: string, id: string, now: string): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, 'WEBHOOK', id),
        UpdateExpression: 'SET last_success_at = :now REMOVE first_failure_at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now },
      }),
    )
    .catch(ignoreFailedCondition);
}

/** A failure: starts the failing streak unless one is running; answers when it started (null: subscription gone). */
export async function recordDeliveryFailure(medspaId: string, id: string, now: string): Promise<string | null> {
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, 'WEBHOOK', id),
        UpdateExpression: 'SET first_failure_at = if_not_exists(first_failure_at, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return webhookFirstFailureCodec.fromItem(Attributes)?.first_failure_at ?? null;
  } catch (error) {
    ignoreFailedCondition(error);
    return null;
  }
}

/**
 * Disables a subscription still failing since `failingSince`: atomic with any success in between
 * (a success removes `first_failure_at`, so the condition fails and the subscription stays on).
 */
export async function autoDisableWebhook(
  medspaId: string,
  id: string,
  failingSince: string,
  reason: string,
  now: string,
): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, 'WEBHOOK', id),
        UpdateExpression:
          'SET enabled = :false, disabled_reason = :reason, version = version + :one, updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND enabled = :true AND first_failure_at = :since',
        ExpressionAttributeValues: {
          ':false': false,
          ':true': true,
          ':reason': reason,
          ':one': 1,
          ':now': now,
          ':since': failingSince,
        },
      }),
    );
    return true;
  } catch (error) {
    ignoreFailedCondition(error);
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Delivery log

export const deliveryKey = (entry: Pick<DeliveryRecord, 'medspa_id' | 'subscription_id' | 'created_at' | 'id'>): Key =>
  webhookDeliveryKey(entry.medspa_id, entry.subscription_id, entry.created_at, entry.id);

const deliveryItem = deliveryCodec.toItem;

/**
 * What a delivery job stands on, in one strongly consistent read: its subscription (null once
 * deleted) and its log entry as logged so far (null before its attempt logged itself).
 */
export async function readDeliveryJob(
  entry: Pick<DeliveryRecord, 'medspa_id' | 'subscription_id' | 'created_at' | 'id'>,
): Promise<{ subscription: WebhookRecord | null; logged: DeliveryRecord | null }> {
  const subscriptionKey = entityKey(entry.medspa_id, 'WEBHOOK', entry.subscription_id);
  const entryKey = deliveryKey(entry);
  const found = await readItems([subscriptionKey, entryKey]);
  return {
    subscription: webhookCodec.fromItem(found.get(itemId(subscriptionKey))),
    logged: deliveryCodec.fromItem(found.get(itemId(entryKey))),
  };
}

/** Scheduled attempts, logged as `pending` unless their attempt already logged itself (it may run first). */
export async function putPendingDeliveries(entries: DeliveryRecord[]): Promise<void> {
  await Promise.all(
    entries.map((entry) =>
      ddb()
        .send(
          new PutCommand({
            TableName: tableName(),
            Item: deliveryItem(entry),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        )
        .catch(ignoreFailedCondition),
    ),
  );
}

/**
 * An attempt's outcome, with the next attempt's `pending` entry when one is scheduled: in one
 * transaction, so the log never shows a failure whose announced retry is missing. An attempt made
 * by a request (test, retry by hand) carries the request's writes (its Idempotency-Key marker).
 */
export async function saveDeliveryAttempt(
  entry: DeliveryRecord,
  next?: DeliveryRecord,
  writes?: RequestWrites,
  /** The next attempt's due item, when it waits longer than the queue can (lib/db/webhook-retries.ts): with its entry. */
  due?: WebhookRetryDueRecord,
): Promise<void> {
  const attempt = { name: 'attempt', action: { Put: { TableName: tableName(), Item: deliveryItem(entry) } } };
  if (next) {
    const outcome = await transact([
      attempt,
      {
        name: 'next',
        action: {
          Put: { TableName: tableName(), Item: deliveryItem(next), ConditionExpression: 'attribute_not_exists(pk)' },
        },
      },
      ...(due ? [{ name: 'due', action: webhookRetryDuePut(due) }] : []),
    ]);
    // Failed: the next attempt already ran and logged itself; only this outcome is left to write.
    if (outcome.ok) return;
  }
  await writeOne(attempt, writes);
}

/** A subscription's log, newest first. */
export async function listDeliveries(
  medspaId: string,
  subscriptionId: string,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> {
  return queryPage(deliveryCodec, {
    partition: webhookDeliveriesPk(medspaId, subscriptionId),
    ...page,
    descending: true,
  });
}

/** A delivery by id (its lookup index entry), or null. */
export async function findDelivery(medspaId: string, deliveryId: string): Promise<DeliveryRecord | null> {
  if (!isEntityId(deliveryId)) return null;
  const { gsi2pk } = webhookDeliveryLookupIndexKeys(medspaId, deliveryId);
  const [delivery] = await queryOnce(deliveryCodec, { partition: gsi2pk, index: 'gsi2', limit: 1 });
  return delivery ?? null;
}
