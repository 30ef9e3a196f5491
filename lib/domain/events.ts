/** The event types of the API reference's webhooks and events section (`webhook.test` only ever goes to the one subscription tested). */
export const EVENT_TYPES = [
  'appointment.created',
  'appointment.updated',
  'appointment.status_changed',
  'appointment.cancelled',
  'appointment.completed',
  'appointment.deleted',
  'appointment.reminder',
  'client.created',
  'client.updated',
  'client.deleted',
  'payment.received',
  'consent.signed',
  'product.low_stock',
] as const;

export type EventType = (typeof EVENT_TYPES)[number] | 'webhook.test';

/** What a subscriber receives (API reference, webhooks and events): the body of every delivery. */
export interface ContractEvent {
  /** Deterministic from its source (a replayed stream record yields the same id): `evt_...`. */
  id: string;
  type: EventType;
  /** ISO 8601 UTC. */
  created_at: string;
  medspa_id: string;
  data: { object: Record<string, unknown>; previous?: Record<string, unknown> };
}

/** EventBridge carries an event as `source` + `detail-type` + `detail`; the local bus uses the same shape. */
export const EVENT_SOURCE = 'medspa-api';
