import type { EventType } from '../schemas/events';

/** The event types derive from THE event table (lib/schemas/events.ts), re-exported for the domain's rules. */
export { EVENT_TYPES, type EventType, type StreamEventType } from '../schemas/events';

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
