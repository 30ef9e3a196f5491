import { describe, expect, it } from 'vitest';
import {
  EVENT_RULES,
  EVENT_SOURCE,
  EVENT_TYPES,
  matches,
  rulesMatching,
  type EventPattern,
} from '../../lib/events/rules';
import { workerQueues } from '../../lib/workers';

const event = (type: string, extra: Record<string, unknown> = {}) => ({
  version: '0',
  id: 'e1',
  source: EVENT_SOURCE,
  'detail-type': type,
  account: '123456789012',
  time: '2026-01-01T00:00:00Z',
  region: 'us-east-1',
  resources: [],
  detail: { id: 'evt_1', type, medspa_id: 'm1', data: { object: { status: 'confirmed' } } },
  ...extra,
});

describe('matches (EventBridge pattern subset)', () => {
  it('matches exact values from an array of alternatives', () => {
    const pattern: EventPattern = { source: ['medspa-api'], 'detail-type': ['client.created', 'client.updated'] };
    expect(matches(pattern, event('client.updated'))).toBe(true);
    expect(matches(pattern, event('client.deleted'))).toBe(false);
    expect(matches(pattern, { ...event('client.created'), source: 'other' })).toBe(false);
  });

  it('requires every field the pattern names and ignores the others', () => {
    expect(matches({ 'detail-type': ['x'] }, { source: 'a' })).toBe(false);
    expect(matches({}, event('anything'))).toBe(true);
    expect(matches({ 'detail-type': [null] }, { 'detail-type': null })).toBe(true);
    expect(matches({ 'detail-type': [null] }, {})).toBe(false);
  });

  it('is exact: case and type count', () => {
    expect(matches({ source: ['medspa-api'] }, { source: 'Medspa-API' })).toBe(false);
    expect(matches({ n: [1] }, { n: '1' })).toBe(false);
    expect(matches({ n: [1, true] }, { n: true })).toBe(true);
  });

  it('matches nested objects (detail) field by field', () => {
    const pattern: EventPattern = { detail: { data: { object: { status: ['confirmed', 'checked_in'] } } } };
    expect(matches(pattern, event('appointment.status_changed'))).toBe(true);
    expect(matches(pattern, { detail: { data: { object: { status: 'cancelled' } } } })).toBe(false);
    expect(matches(pattern, { detail: 'not an object' })).toBe(false);
    expect(matches(pattern, {})).toBe(false);
  });

  it('matches an array value in the event when any element matches', () => {
    expect(matches({ resources: ['arn:b'] }, { resources: ['arn:a', 'arn:b'] })).toBe(true);
    expect(matches({ resources: ['arn:c'] }, { resources: ['arn:a', 'arn:b'] })).toBe(false);
  });

  it('supports prefix, and only prefix, as an operator', () => {
    expect(matches({ 'detail-type': [{ prefix: 'appointment.' }] }, event('appointment.created'))).toBe(true);
    expect(matches({ 'detail-type': [{ prefix: 'appointment.' }] }, event('client.created'))).toBe(false);
    expect(matches({ n: [{ prefix: '1' }] }, { n: 12 })).toBe(false);
    expect(() => matches({ 'detail-type': [{ 'anything-but': 'x' } as never] }, event('x'))).toThrow(/Unsupported/);
    expect(() => matches({ 'detail-type': [] }, event('x'))).toThrow(/Empty/);
  });
});

describe('EVENT_RULES', () => {
  it("routes each of the contract's event types through exactly one rule (no duplicate deliveries)", () => {
    expect(EVENT_TYPES).toHaveLength(27);
    expect(rulesMatching(event('webhook.test'))).toEqual([]);
    for (const type of EVENT_TYPES)
      expect(
        rulesMatching(event(type)).map((rule) => rule.name),
        type,
      ).toHaveLength(1);
  });

  it('routes nothing of another source or of an unknown type', () => {
    expect(rulesMatching({ ...event('client.created'), source: 'aws.dynamodb' })).toEqual([]);
    expect(rulesMatching(event('client.merged'))).toEqual([]);
  });

  it('has unique names and targets queues the workers table declares', () => {
    expect(new Set(EVENT_RULES.map((rule) => rule.name)).size).toBe(EVENT_RULES.length);
    const queues = workerQueues();
    for (const rule of EVENT_RULES) expect(queues.has(rule.target.queue), rule.name).toBe(true);
  });

  it('uses only exact values, so CDK and the local bus see the same patterns', () => {
    for (const rule of EVENT_RULES) {
      expect(rule.pattern.source).toEqual([EVENT_SOURCE]);
      for (const type of rule.pattern['detail-type'] as string[]) expect(EVENT_TYPES).toContain(type);
    }
  });
});
