/**
 * The event routing rules, as plain data derived from the event table (lib/domain/events.ts):
 * the CDK stack turns each into an EventBridge rule on the stage's bus, and the local in-process
 * bus applies the same list with `matches`. No CDK or SDK imports here, so both sides can load it.
 */

import { EVENT_CATALOG, EVENT_SOURCE, EVENT_TYPES, type EventRuleName } from './types';

export { EVENT_SOURCE, EVENT_TYPES };

/**
 * The subset of EventBridge's pattern language we use and `matches` implements: a leaf is an
 * array of alternatives, each an exact value or `{ prefix }`; an object matches a nested object.
 */
export type PatternValue = string | number | boolean | null | { prefix: string };
export interface EventPattern {
  [field: string]: readonly PatternValue[] | EventPattern;
}

export interface EventRule {
  /** Construct id / local name; stable (renaming replaces the rule). */
  name: string;
  description: string;
  pattern: EventPattern;
  /** A queue declared by a worker trigger in lib/workers. */
  target: { queue: string };
}

/** What each rule the event table names is for (a row naming a rule not described here does not compile). */
const RULE_DESCRIPTIONS: Record<EventRuleName, string> = {
  AppointmentEvents: 'Appointment lifecycle and reminders to webhook fan-out',
  ClientEvents: 'Client and consent changes, and recall notices, to webhook fan-out',
  CommerceEvents: 'Payments, low stock, plans and lot recalls to webhook fan-out',
};

/**
 * A rule per name the event table uses, matching the event types whose row names it (in table
 * order), to the `events` queue. Every event type is routed by exactly one rule (a test checks
 * it): two rules matching one event would put it twice on the `events` queue and deliver every
 * webhook twice. `webhook.test` never goes on the bus: it is sent to the one subscription tested.
 */
export const EVENT_RULES: readonly EventRule[] = (Object.keys(RULE_DESCRIPTIONS) as EventRuleName[]).map((name) => ({
  name,
  description: RULE_DESCRIPTIONS[name],
  pattern: { source: [EVENT_SOURCE], 'detail-type': EVENT_TYPES.filter((type) => EVENT_CATALOG[type].rule === name) },
  target: { queue: 'events' },
}));

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function matchesValue(alternative: PatternValue, value: unknown): boolean {
  if (isPlainObject(alternative)) {
    const keys = Object.keys(alternative);
    if (keys.length !== 1 || keys[0] !== 'prefix')
      throw new Error(`Unsupported pattern operator: ${JSON.stringify(alternative)}`);
    return typeof value === 'string' && value.startsWith(alternative.prefix);
  }
  return value === alternative;
}

/**
 * EventBridge matching for the subset above: every field named by the pattern must be present in
 * the event and match one alternative (an array value in the event matches if any element does);
 * fields the pattern does not name are ignored. Anything else in a pattern throws, so the local
 * bus can never silently disagree with EventBridge. Hand-written: no maintained EventBridge
 * pattern library is on npm; test/unit/event-pattern-semantics.test.ts checks it against the
 * documented semantics, and test/integration/local-wiring.test.ts runs it on the synthesized patterns.
 */
export function matches(pattern: EventPattern, event: Record<string, unknown>): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    const value = event[field];
    if (Array.isArray(expected)) {
      if (expected.length === 0) throw new Error(`Empty alternatives for "${field}"`);
      const candidates = Array.isArray(value) ? value : [value];
      return (
        value !== undefined &&
        candidates.some((candidate) =>
          expected.some((alternative: PatternValue) => matchesValue(alternative, candidate)),
        )
      );
    }
    return isPlainObject(value) && matches(expected as EventPattern, value);
  });
}

/** The rules an event goes through (locally: the queues it is sent to). */
export const rulesMatching = (event: Record<string, unknown>, rules: readonly EventRule[] = EVENT_RULES) =>
  rules.filter((rule) => matches(rule.pattern, event));
