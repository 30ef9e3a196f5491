import { createHash, randomUUID } from 'node:crypto';

/**
 * Event ids (API reference, webhooks and events's `id`, the `Webhook-Id` receivers dedupe on): `evt_` and 32 hex digits.
 * Ids derived from their source are deterministic, so a replayed stream record or a re-run
 * sweep yields the same id; on-demand reminders get a random one, answered by the API first.
 */
export const eventIdFrom = (...parts: string[]): string =>
  `evt_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;

export const newEventId = (): string => `evt_${randomUUID().replaceAll('-', '')}`;
