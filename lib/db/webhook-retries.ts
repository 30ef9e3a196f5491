import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { minuteStart, utcMinuteOf } from '../domain/reminders';
import type { DeliveryRecord, WebhookRetryDueRecord } from '../domain/records';
import { ddb, tableName } from './client';
import { deliveryCodec, webhookRetryDueCodec, webhookRetrySweepCodec } from './codecs';
import { ignoreFailedCondition } from './conditions';
import { itemId, readItems } from './key-reads';
import { webhookDeliveryKey, webhookRetriesDuePk, webhookRetryDueKey, webhookRetrySweepCheckpointKey } from './keys';
import { sweepCheckpoint } from './minute-partitions';
import { queryAll } from './query';

/**
 * Webhook retries waiting past SQS's longest delay (keys.ts `webhookRetryDueKey`): due items by
 * minute, swept every minute to the `deliveries` queue, and the sweeper's checkpoint
 * (docs/decisions/0021-webhook-retries-in-minute-partitions.md).
 */

/** Due items nobody swept (a sweeper down for a week) expire on their own. */
const DUE_ITEM_TTL_SECONDS = 7 * 24 * 3600;

/** The due item of a retry's `pending` log entry, due at `dueAt` (ISO). */
export const webhookRetryDueOf = (next: DeliveryRecord, dueAt: string): WebhookRetryDueRecord => {
  const dueMinute = utcMinuteOf(dueAt);
  return {
    due_minute: dueMinute,
    due_at: dueAt,
    medspa_id: next.medspa_id,
    subscription_id: next.subscription_id,
    delivery_id: next.id,
    delivery_created_at: next.created_at,
    expires_at: Math.floor(minuteStart(dueMinute) / 1000) + DUE_ITEM_TTL_SECONDS,
  };
};

/** The due item as a transaction's Put (written with the retry's `pending` entry, lib/db/webhooks.ts). */
export const webhookRetryDuePut = (due: WebhookRetryDueRecord) => ({
  Put: { TableName: tableName(), Item: webhookRetryDueCodec.toItem(due) },
});

/** A due item alone (a job that came back from the queue with more than its longest delay still to wait). */
export async function putWebhookRetryDue(due: WebhookRetryDueRecord): Promise<void> {
  await ddb().send(new PutCommand(webhookRetryDuePut(due).Put));
}

/** Every retry due in one minute, all practices: one Query of that minute's partition. */
export const webhookRetriesDueIn = (minute: string): Promise<WebhookRetryDueRecord[]> =>
  queryAll(webhookRetryDueCodec, { partition: webhookRetriesDuePk(minute), consistent: true });

const dueKey = (due: WebhookRetryDueRecord) => webhookRetryDueKey(due.due_minute, due.medspa_id, due.delivery_id);

/**
 * Takes a due item until `until` unless another sweep holds it: true when this call took it. A
 * sweep that dies holding one leaves it to the first sweep after `until`.
 */
export async function claimWebhookRetry(due: WebhookRetryDueRecord, now: string, until: string): Promise<boolean> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: dueKey(due),
        UpdateExpression: 'SET claimed_until = :until',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(claimed_until) OR claimed_until <= :now)',
        ExpressionAttributeValues: { ':until': until, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    ignoreFailedCondition(error);
    return false;
  }
}

export async function deleteWebhookRetryDue(due: WebhookRetryDueRecord): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: dueKey(due) }));
}

/** The log entries of these due items, by delivery id: strongly consistent, one BatchGetItem per 100. */
export async function deliveriesOf(dues: WebhookRetryDueRecord[]): Promise<Map<string, DeliveryRecord>> {
  const keyOf = (due: WebhookRetryDueRecord) =>
    webhookDeliveryKey(due.medspa_id, due.subscription_id, due.delivery_created_at, due.delivery_id);
  const found = await readItems(dues.map(keyOf));
  const entries = new Map<string, DeliveryRecord>();
  for (const due of dues) {
    const entry = deliveryCodec.fromItem(found.get(itemId(keyOf(due))));
    if (entry) entries.set(due.delivery_id, entry);
  }
  return entries;
}

const retrySweep = /* @__PURE__ */ sweepCheckpoint(webhookRetrySweepCodec, webhookRetrySweepCheckpointKey);
export const readWebhookRetrySweepCheckpoint = retrySweep.read;
export const advanceWebhookRetrySweepCheckpoint = retrySweep.advance;
