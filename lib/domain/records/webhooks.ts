import type { ContractEvent, EventType } from '../events';

/** Webhook subscriptions and their delivery log. */

export interface WebhookRecord {
  id: string;
  medspa_id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  /** The first failed attempt since the last success (absent while deliveries succeed). */
  first_failure_at?: string | null;
  /** Kept to the hour: not every success is written back. */
  last_success_at?: string | null;
  /** AES-256-GCM ciphertext of the signing secret (lib/crypto/webhook-secrets); never the secret. */
  secret_enc: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret_enc?: string | null;
  previous_secret_expires_at?: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt (or one scheduled attempt, while `pending`) of one event to one subscription; kept 30 days. */
export interface DeliveryRecord {
  id: string;
  medspa_id: string;
  subscription_id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  /** What was (or will be) sent, so the attempt can be retried by hand; internal, never returned. */
  event: ContractEvent;
}

/**
 * A retry waiting past SQS's longest delay, in the partition of its due minute: which `pending` log
 * entry to send to the `deliveries` queue, and when (docs/decisions/0021-webhook-retries-in-minute-partitions.md).
 */
export interface WebhookRetryDueRecord {
  due_minute: string;
  due_at: string;
  medspa_id: string;
  subscription_id: string;
  delivery_id: string;
  delivery_created_at: string;
  /** Taken by a sweep until this instant (ISO): other sweeps leave it alone meanwhile. */
  claimed_until?: string;
  /** TTL: an item nobody swept (a sweeper down for a week) expires on its own. */
  expires_at: number;
}
