import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { pageRequest } from '../crypto/cursor';
import { encryptSecret, newSigningSecret } from '../crypto/webhook-secrets';
import type { RequestWrites } from '../db/request-writes';
import { changesNothing, definedFields, type VersionedFailure } from '../db/update';
import {
  commitWebhookChange,
  countWebhooks,
  deleteWebhook,
  findDelivery,
  findWebhook,
  listDeliveries,
  listWebhooks as queryWebhooks,
  putNewWebhook,
} from '../db/webhooks';
import type { DeliveryRecord, WebhookRecord } from '../domain/records';
import { PREVIOUS_SECRET_VALID_MS } from '../domain/webhooks';
import { AppError } from '../errors';
import type { ContractEvent } from '../events/types';
import type {
  CreateWebhookInput,
  UpdateWebhookInput,
  Webhook,
  WebhookDelivery,
  WebhookWithSecret,
} from '../schemas/webhooks';
import { subscriptionUrlProblem } from '../webhooks/address';
import { deliverOnce } from '../webhooks/jobs';
import { changeFromCurrent as changeFromFresh } from './change-from-current';
import { failureOf, type FailureTable } from './failures';
import { toListResult, type ListResult } from './list-result';
import type { WriteOptions } from './resources';

/**
 * Webhook subscriptions (API reference, webhooks and events). Signing secrets are stored encrypted and appear in the
 * answers of create and rotate-secret only; test and retry make one attempt in the request and
 * answer its log entry. Delivery itself (fan-out, retries, auto-disable) is lib/webhooks/jobs.
 */

/** Fan-out reads a practice's subscriptions in one Query: a bound keeps that one small page. */
export const MAX_WEBHOOKS_PER_PRACTICE = 25;

export const toWebhook = (stored: WebhookRecord): Webhook => ({
  id: stored.id,
  medspa_id: stored.medspa_id,
  url: stored.url,
  events: stored.events,
  description: stored.description,
  enabled: stored.enabled,
  disabled_reason: stored.disabled_reason ?? null,
  first_failure_at: stored.first_failure_at ?? null,
  last_success_at: stored.last_success_at ?? null,
  version: stored.version,
  created_at: stored.created_at,
  updated_at: stored.updated_at,
});

export const toDelivery = (entry: DeliveryRecord): WebhookDelivery => ({
  id: entry.id,
  event_id: entry.event_id,
  event_type: entry.event_type,
  attempt: entry.attempt,
  status: entry.status,
  response_status: entry.response_status,
  duration_ms: entry.duration_ms,
  error: entry.error,
  next_attempt_at: entry.next_attempt_at,
  created_at: entry.created_at,
});

const secretContext = (medspaId: string, id: string) => `${medspaId}:${id}`;

async function assertSubscribable(url: string): Promise<void> {
  const problem = await subscriptionUrlProblem(url, { allowLocal: config().ALLOW_LOCAL_WEBHOOKS });
  if (problem)
    throw new AppError('VALIDATION_ERROR', `url ${problem}`, { details: [{ path: 'url', message: problem }] });
}

async function readStored(medspaId: string, id: string): Promise<WebhookRecord> {
  const found = await findWebhook(medspaId, id);
  if (!found) throw new AppError('WEBHOOK_NOT_FOUND');
  return found;
}

export const readWebhook = async (medspaId: string, id: string): Promise<Webhook> =>
  toWebhook(await readStored(medspaId, id));

export async function listWebhooks(
  medspaId: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<Webhook>> {
  const page = pageRequest(medspaId, 'webhooks', query);
  const result = await queryWebhooks(medspaId, page);
  return toListResult({ ...result, items: result.items.map(toWebhook) });
}

export async function createWebhook(
  medspaId: string,
  input: CreateWebhookInput,
  now: Date,
  writes?: RequestWrites,
): Promise<WebhookWithSecret> {
  await assertSubscribable(input.url);
  // Counted, not reserved: two creates racing at the bound may both pass (a soft limit).
  if ((await countWebhooks(medspaId)) >= MAX_WEBHOOKS_PER_PRACTICE) {
    throw new AppError(
      'CONFLICT',
      `A practice can have at most ${MAX_WEBHOOKS_PER_PRACTICE} webhook subscriptions; delete one first`,
    );
  }
  const id = randomUUID();
  const secret = newSigningSecret();
  const at = now.toISOString();
  const stored: WebhookRecord = {
    id,
    medspa_id: medspaId,
    url: input.url,
    events: input.events,
    description: input.description ?? null,
    enabled: true,
    disabled_reason: null,
    secret_enc: encryptSecret(secret, secretContext(medspaId, id)),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  await putNewWebhook(stored, writes);
  return { ...toWebhook(stored), secret };
}

const WEBHOOK_WRITE_FAILURES: FailureTable<{ failed: VersionedFailure }> = {
  absent: 'WEBHOOK_NOT_FOUND',
  version: 'VERSION_CONFLICT',
};

/**
 * A change computed from the current subscription and written on its version (./change-from-current.ts:
 * If-Match when given; otherwise a concurrent change just means another try on fresh state).
 */
const changeFromCurrent = (
  medspaId: string,
  id: string,
  options: WriteOptions,
  build: (current: WebhookRecord) => { changes: Record<string, unknown>; remove?: string[] },
): Promise<WebhookRecord> =>
  changeFromFresh({
    read: () => readStored(medspaId, id),
    build,
    // Nothing to change: no new version, no new ETag (API reference: a PATCH that changes nothing is no change).
    unchanged: ({ changes, remove }, current) => !remove?.length && changesNothing(changes, current),
    commit: async ({ changes, remove }, current) => {
      const result = await commitWebhookChange(current, changes, {
        now: options.now.toISOString(),
        remove,
        writes: options.writes,
      });
      if (!result.ok) throw failureOf(WEBHOOK_WRITE_FAILURES, result);
      return result.item;
    },
    ifMatch: options.ifMatch,
  });

/** Re-enabling a disabled subscription clears its reason and its failing streak, so it gets a fresh 3 days. */
export async function changeWebhook(
  medspaId: string,
  id: string,
  input: UpdateWebhookInput,
  options: WriteOptions,
): Promise<Webhook> {
  if (input.url !== undefined) await assertSubscribable(input.url);
  const updated = await changeFromCurrent(medspaId, id, options, (current) => {
    const changes = definedFields(input);
    const reEnabling = input.enabled === true && !current.enabled;
    if (!reEnabling) return { changes };
    return { changes: { ...changes, disabled_reason: null }, remove: ['first_failure_at'] };
  });
  return toWebhook(updated);
}

export async function removeWebhook(
  medspaId: string,
  id: string,
  options: WriteOptions,
): Promise<{ id: string; deleted: true }> {
  const result = await deleteWebhook(medspaId, id, options.ifMatch);
  if (!result.ok) throw failureOf(WEBHOOK_WRITE_FAILURES, result);
  return { id, deleted: true };
}

/** The new secret signs from now on; the one it replaces signs too for 24 h (an older one stops at once). */
export async function rotateWebhookSecret(
  medspaId: string,
  id: string,
  now: Date,
  writes?: RequestWrites,
): Promise<WebhookWithSecret> {
  const secret = newSigningSecret();
  const updated = await changeFromCurrent(medspaId, id, { now, writes }, (current) => ({
    changes: {
      secret_enc: encryptSecret(secret, secretContext(medspaId, id)),
      previous_secret_enc: current.secret_enc,
      previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString(),
    },
  }));
  return { ...toWebhook(updated), secret };
}

/** `webhook.test`: sent to this subscription only, now, once. */
export async function testWebhook(
  medspaId: string,
  id: string,
  now: Date,
  writes?: RequestWrites,
): Promise<WebhookDelivery> {
  const sub = await readStored(medspaId, id);
  const event: ContractEvent = {
    id: `evt_test_${randomUUID().replace(/-/g, '')}`,
    type: 'webhook.test',
    created_at: now.toISOString(),
    medspa_id: medspaId,
    data: {
      object: {
        webhook_id: sub.id,
        message: 'A test event from medspa-api: your endpoint is reachable and can verify signatures.',
      },
    },
  };
  return toDelivery(await deliverOnce(sub, event, 1, { now: () => now }, writes));
}

export async function listWebhookDeliveries(
  medspaId: string,
  id: string,
  query: { limit: number; cursor?: string },
): Promise<ListResult<WebhookDelivery>> {
  const page = pageRequest(medspaId, 'webhook-deliveries', { ...query, webhook_id: id });
  const [, log] = await Promise.all([readStored(medspaId, id), listDeliveries(medspaId, id, page)]);
  return toListResult({ ...log, items: log.items.map(toDelivery) });
}

/** The logged attempt's event, sent again now (same `webhook-id`, so receivers dedupe); a new entry with the next attempt number. */
export async function retryWebhookDelivery(
  medspaId: string,
  id: string,
  deliveryId: string,
  now: Date,
  writes?: RequestWrites,
): Promise<WebhookDelivery> {
  const [sub, delivery] = await Promise.all([readStored(medspaId, id), findDelivery(medspaId, deliveryId)]);
  if (!delivery || delivery.subscription_id !== sub.id)
    throw new AppError('WEBHOOK_NOT_FOUND', 'No such delivery for this webhook');
  return toDelivery(await deliverOnce(sub, delivery.event, delivery.attempt + 1, { now: () => now }, writes));
}
