import { EVENT_SOURCE, EVENT_TYPES } from './types';

/**
 * PLACEHOLDER, to be reconciled with the CDK branch's lib/events/rules.ts (which owns the rule
 * patterns): the minimum the webhook consumer needs. Rules are EventBridge patterns as data, so
 * the bus on AWS and the in-process bus of the local server route events by the same patterns;
 * `matches` is the local half (exact-value arrays and nested objects, which is all we use).
 */

/** What travels on the bus: EventBridge's envelope around a ContractEvent. */
export interface BusEvent {
  source: string;
  'detail-type': string;
  detail: unknown;
}

export type EventPattern = { [field: string]: readonly unknown[] | EventPattern };

export const eventRules = {
  /** Every contract event goes to the webhook fan-out (the `events` queue on AWS). */
  webhookFanOut: { source: [EVENT_SOURCE], 'detail-type': [...EVENT_TYPES] },
} as const satisfies Record<string, EventPattern>;

/** EventBridge semantics for the pattern subset above: every field named must match one of its values. */
export function matches(pattern: EventPattern, event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const value = (event as Record<string, unknown>)[field];
    if (Array.isArray(expected)) return Array.isArray(value) ? value.some((v) => expected.includes(v)) : expected.includes(value);
    return matches(expected as EventPattern, value);
  });
}
