import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import { Deleted } from '../schemas/common';
import * as w from '../schemas/webhooks';

/** An unknown `{id}`. */
const NOT_FOUND = ['WEBHOOK_NOT_FOUND'] as const;

export const listWebhooks = /* @__PURE__ */ route('listWebhooks', () => ({
  method: 'GET',
  path: '/v1/webhooks',
  group: 'webhooks',
  summary: 'List webhook subscriptions',
  auth: ALLOW.webhooks,
  query: w.WebhookListQuery,
  response: list(w.Webhook),
  reads: ['webhooks'],
}));

export const createWebhook = /* @__PURE__ */ route('createWebhook', () => ({
  method: 'POST',
  path: '/v1/webhooks',
  group: 'webhooks',
  summary: 'Subscribe a URL to events (the signing secret is in this answer only)',
  auth: ALLOW.webhooks,
  body: w.CreateWebhookBody,
  response: w.WebhookWithSecret,
  errors: ['CONFLICT'],
  writes: { webhooks: ['put'] },
  // Seals the new signing secret at rest.
  touches: { secrets: ['webhook'] },
  reads: ['webhooks'],
}));

export const getWebhook = /* @__PURE__ */ route('getWebhook', () => ({
  method: 'GET',
  path: '/v1/webhooks/{id}',
  group: 'webhooks',
  summary: 'Get a webhook subscription',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  response: w.Webhook,
  errors: NOT_FOUND,
  reads: ['webhooks'],
}));

export const updateWebhook = /* @__PURE__ */ route('updateWebhook', () => ({
  method: 'PATCH',
  path: '/v1/webhooks/{id}',
  group: 'webhooks',
  summary: 'Change url, events, description or enabled (re-enabling clears disabled_reason)',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  body: w.UpdateWebhookBody,
  response: w.Webhook,
  errors: NOT_FOUND,
  writes: { webhooks: ['update'] },
  reads: ['webhooks'],
}));

export const deleteWebhook = /* @__PURE__ */ route('deleteWebhook', () => ({
  method: 'DELETE',
  path: '/v1/webhooks/{id}',
  group: 'webhooks',
  summary: 'Delete a webhook subscription (no further deliveries)',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  response: Deleted,
  errors: NOT_FOUND,
  writes: { webhooks: ['delete'] },
  reads: [],
}));

export const rotateWebhookSecret = /* @__PURE__ */ route('rotateWebhookSecret', () => ({
  method: 'POST',
  path: '/v1/webhooks/{id}/rotate-secret',
  group: 'webhooks',
  summary: 'New signing secret; the previous one keeps signing for 24 h (both signatures sent)',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  response: w.WebhookWithSecret,
  successStatus: 200,
  errors: NOT_FOUND,
  writes: { webhooks: ['update'] },
  // Seals the new signing secret at rest.
  touches: { secrets: ['webhook'] },
  reads: ['webhooks'],
}));

export const testWebhook = /* @__PURE__ */ route('testWebhook', () => ({
  method: 'POST',
  path: '/v1/webhooks/{id}/test',
  group: 'webhooks',
  summary: 'Send a webhook.test event now and answer the attempt (not retried)',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  response: w.WebhookDelivery,
  successStatus: 200,
  timeoutSeconds: 20,
  errors: NOT_FOUND,
  writes: { webhookDeliveries: ['put'], webhooks: ['update'] },
  // Opens the signing secret to sign the attempt it sends now.
  touches: { secrets: ['webhook'] },
  reads: ['webhooks'],
}));

export const listWebhookDeliveries = /* @__PURE__ */ route('listWebhookDeliveries', () => ({
  method: 'GET',
  path: '/v1/webhooks/{id}/deliveries',
  group: 'webhooks',
  summary: 'The delivery log of a subscription, newest first (kept 30 days)',
  auth: ALLOW.webhooks,
  params: w.WebhookParams,
  query: w.WebhookDeliveryListQuery,
  response: list(w.WebhookDelivery),
  errors: NOT_FOUND,
  reads: ['webhookDeliveries', 'webhooks'],
}));

export const retryWebhookDelivery = /* @__PURE__ */ route('retryWebhookDelivery', () => ({
  method: 'POST',
  path: '/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
  group: 'webhooks',
  summary: "Deliver a logged attempt's event again now and answer the new attempt",
  auth: ALLOW.webhooks,
  params: w.WebhookDeliveryParams,
  response: w.WebhookDelivery,
  successStatus: 200,
  timeoutSeconds: 20,
  errors: NOT_FOUND,
  writes: { webhookDeliveries: ['put'], webhooks: ['update'] },
  // Opens the signing secret to sign the attempt it sends now.
  touches: { secrets: ['webhook'] },
  reads: ['webhookDeliveryLookup', 'webhooks'],
}));

/**
 * Webhook subscriptions and their delivery log (API reference, webhooks and events): managed by admins and managers,
 * readable by analysts too (they read everything but credentials and the audit log), never by the
 * front desk or providers. The signing secret is returned by create and rotate-secret only.
 */
export const webhookRoutes = /* @__PURE__ */ defineRoutes({
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  retryWebhookDelivery,
});
