import { describe, expect, it } from 'vitest';
import { EVENT_RULES, EVENT_SOURCE, EVENT_TYPES, matches, type EventPattern } from '../../lib/events/rules';

/**
 * The local bus's matcher (lib/events/rules.ts `matches`) is hand-written: no maintained
 * EventBridge pattern library is on npm. These cases are the EventBridge User Guide's own
 * ("Event patterns", "Arrays in event patterns", "Matching null values and empty strings",
 * "Prefix matching"), with its example events and patterns, plus the patterns we deploy.
 * One documented rule cannot be checked here and cannot arise: EventBridge compares numbers by
 * their JSON text (300, 300.0 and 3.0e2 differ), which JSON.parse erases; our patterns hold none.
 */

const ec2Event = {
  version: '0',
  id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '111122223333',
  time: '2017-12-22T18:43:48Z',
  region: 'us-west-1',
  resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'],
  detail: { 'instance-id': 'i-1234567890abcdef0', state: 'terminated' },
};

const autoscalingEvent = {
  version: '0',
  id: '3e3c153a-8339-4e30-8c35-687ebef853fe',
  'detail-type': 'EC2 Instance Launch Successful',
  source: 'aws.autoscaling',
  account: '123456789012',
  time: '2015-11-11T21:31:47Z',
  region: 'us-east-1',
  resources: [],
  detail: { eventVersion: '', responseElements: null },
};

describe("the local matcher follows EventBridge's documented matching", () => {
  it("matches the guide's EC2 termination pattern, on the fields it names only", () => {
    const pattern: EventPattern = {
      source: ['aws.ec2'],
      'detail-type': ['EC2 Instance State-change Notification'],
      detail: { state: ['terminated'] },
    };
    expect(matches(pattern, ec2Event)).toBe(true);
    expect(matches(pattern, { ...ec2Event, detail: { ...ec2Event.detail, state: 'running' } })).toBe(false);
    // Fields the pattern does not name are ignored ("*": "*").
    expect(matches(pattern, { ...ec2Event, region: 'eu-west-1', extra: { anything: [1, 2] } })).toBe(true);
  });

  it('needs every field the pattern names, with the same nesting', () => {
    const pattern: EventPattern = { detail: { state: ['terminated'] } };
    expect(matches(pattern, { state: 'terminated' })).toBe(false);
    expect(matches(pattern, { detail: {} })).toBe(false);
    expect(matches(pattern, { detail: 'terminated' })).toBe(false);
    expect(matches({ source: ['aws.ec2'] }, { detail: { source: 'aws.ec2' } })).toBe(false);
  });

  it("matches any one of the values in a pattern's array", () => {
    const pattern: EventPattern = { source: ['aws.ec2', 'aws.fargate'] };
    expect(matches(pattern, ec2Event)).toBe(true);
    expect(matches(pattern, { ...ec2Event, source: 'aws.fargate' })).toBe(true);
    expect(matches(pattern, { ...ec2Event, source: 'aws.ecs' })).toBe(false);
  });

  it('compares strings character by character, without case folding or normalization', () => {
    expect(matches({ source: ['aws.ec2'] }, { source: 'AWS.EC2' })).toBe(false);
    expect(matches({ source: ['aws.ec2'] }, { source: 'aws.ec2 ' })).toBe(false);
    // é composed (NFC) and decomposed (NFD) are different strings to EventBridge.
    expect(matches({ name: ['caf\u00e9'] }, { name: 'cafe\u0301' })).toBe(false);
    expect(matches({ name: ['caf\u00e9'] }, { name: 'caf\u00e9' })).toBe(true);
  });

  it('matches JSON values by type: a number is not its string', () => {
    const macie = { source: 'aws.macie', detail: { 'risk-score': 80, trigger: { risk: 8 } } };
    expect(matches({ source: ['aws.macie'], detail: { 'risk-score': [80], trigger: { risk: [8] } } }, macie)).toBe(
      true,
    );
    expect(matches({ detail: { 'risk-score': ['80'] } }, macie)).toBe(false);
    expect(matches({ flag: [true] }, { flag: 'true' })).toBe(false);
  });

  it('keeps null and the empty string apart, and a missing field matches neither', () => {
    expect(matches({ detail: { eventVersion: [''] } }, autoscalingEvent)).toBe(true);
    expect(matches({ detail: { responseElements: [null] } }, autoscalingEvent)).toBe(true);
    expect(matches({ detail: { eventVersion: [null] } }, autoscalingEvent)).toBe(false);
    expect(matches({ detail: { responseElements: [''] } }, autoscalingEvent)).toBe(false);
    expect(matches({ detail: { missing: [null] } }, autoscalingEvent)).toBe(false);
  });

  it("matches an array in the event when it shares a value with the pattern's array", () => {
    const pattern: EventPattern = {
      resources: [
        'arn:aws:ec2:us-east-1:123456789012:instance/i-b188560f',
        'arn:aws:ec2:us-east-1:111122223333:instance/i-b188560f',
        'arn:aws:ec2:us-east-1:444455556666:instance/i-b188560f',
      ],
    };
    const event = {
      resources: [
        'arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:eb56d16b-bbf0-401d-b893-d5978ed4a025:autoScalingGroupName/ASGTerminate',
        'arn:aws:ec2:us-east-1:123456789012:instance/i-b188560f',
      ],
    };
    expect(matches(pattern, event)).toBe(true);
    expect(matches(pattern, { resources: [event.resources[0]] })).toBe(false);
    expect(matches(pattern, { resources: [] })).toBe(false);
  });

  it('matches a prefix of a string value only', () => {
    expect(matches({ region: [{ prefix: 'us-' }] }, ec2Event)).toBe(true);
    expect(matches({ region: [{ prefix: 'ca-' }] }, ec2Event)).toBe(false);
    expect(matches({ n: [{ prefix: '8' }] }, { n: 80 })).toBe(false);
  });

  it('refuses what it does not implement rather than guess', () => {
    for (const operator of [
      { 'anything-but': 'x' },
      { suffix: 'x' },
      { numeric: ['>', 0] },
      { exists: true },
      { 'equals-ignore-case': 'x' },
      { wildcard: 'x*' },
    ]) {
      expect(() => matches({ source: [operator as never] }, ec2Event), JSON.stringify(operator)).toThrow(/Unsupported/);
    }
  });
});

describe('the patterns we deploy use only what the matcher implements', () => {
  const leaves = (pattern: EventPattern): unknown[] =>
    Object.values(pattern).flatMap((value) => (Array.isArray(value) ? value : leaves(value as EventPattern)));

  it('exact strings only, on source and detail-type', () => {
    for (const rule of EVENT_RULES) {
      expect(Object.keys(rule.pattern).sort(), rule.name).toEqual(['detail-type', 'source']);
      for (const leaf of leaves(rule.pattern)) expect(typeof leaf, rule.name).toBe('string');
    }
  });

  it('an event of each type matches its rule, and no rule for another source, a type in other case, or a padded type', () => {
    for (const type of EVENT_TYPES) {
      const event = { source: EVENT_SOURCE, 'detail-type': type, detail: {} };
      expect(
        EVENT_RULES.filter((rule) => matches(rule.pattern, event)),
        type,
      ).toHaveLength(1);
      for (const other of [
        { ...event, source: `${EVENT_SOURCE}.other` },
        { ...event, 'detail-type': type.toUpperCase() },
        { ...event, 'detail-type': ` ${type}` },
      ]) {
        expect(
          EVENT_RULES.filter((rule) => matches(rule.pattern, other)),
          JSON.stringify(other),
        ).toHaveLength(0);
      }
    }
  });
});
