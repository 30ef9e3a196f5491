import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localAwsModel, type LocalAwsModel } from '../../infra/local/aws/model';
import { LOCAL_STREAM_WORKERS, localStreamMapping } from '../../infra/local/event-source';
import { workers } from '../../lib/workers';
import { LOCAL_SWEEP_SPEEDUP, localSweepEveryMs } from '../../infra/local/pipeline';
import { STARTING_POSITION } from '../../infra/local/stream-poller';
import { config, resetConfig } from '../../lib/config';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { EVENT_RULES, EVENT_TYPES, matches, type EventPattern } from '../../lib/events/rules';
import type { ContractEvent, EventType } from '../../lib/events/types';
import { logger } from '../../lib/log';
import {
  busEvent,
  DEAD_LETTER_FILE,
  fanOutRoutes,
  LOCAL_DELIVERY_CONCURRENCY,
  localDeliveriesQueue,
  localFanOut,
  startLocalDelivery,
} from '../../lib/webhooks/local-delivery';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { startReceiver, type Receiver } from '../fixtures/receiver';
import { waitFor } from '../fixtures/wait';

/**
 * The local pipeline's wiring against the synthesized dev stage (infra/local/aws/model.ts), field by
 * field: the stream mappings, the SQS mappings and queues, the bus rules and the schedule. Each
 * template resource's property names are listed, so a field added to the template fails here
 * until the local side takes it or the difference is named below.
 */

let model: LocalAwsModel;
beforeAll(async () => {
  model = await localAwsModel();
});

/** The stack's construct ids: `streamToBus-failures` -> `StreamToBusFailures` (infra/stacks/stage-settings.ts `pascal`). */
const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

const queue = (id: string) => {
  const found = model.queues.filter((candidate) => candidate.id === id);
  expect(found, id).toHaveLength(1);
  return found[0];
};

const mapping = (fn: string) => {
  const found = model.eventSourceMappings.filter((candidate) => candidate.function === fn);
  expect(found, fn).toHaveLength(1);
  return found[0].properties;
};

const fields = (properties: object) => Object.keys(properties).sort();

const contractEvent = (type: string, medspaId = 'm1'): ContractEvent => ({
  id: `evt_${randomUUID().replace(/-/g, '')}`,
  type: type as EventType,
  created_at: new Date().toISOString(),
  medspa_id: medspaId,
  data: { object: { id: randomUUID() } },
});

describe('stream mappings: one local poller each, with its settings', () => {
  it("polls for exactly the template's stream mappings", () => {
    const streamMappings = model.eventSourceMappings.filter(
      (candidate) => candidate.properties.EventSourceArn === model.table.streamArn,
    );
    expect(streamMappings.map((candidate) => candidate.function).sort()).toEqual([...LOCAL_STREAM_WORKERS].sort());
  });

  it.each(LOCAL_STREAM_WORKERS)(
    '%s: batch size, partial batch responses, retries, bisect, record age, start, filters',
    (worker) => {
      const properties = mapping(worker);
      const local = localStreamMapping(worker);
      // No MaximumBatchingWindowInSeconds or TumblingWindowInSeconds, and a ParallelizationFactor
      // of 1: the poller hands over every record its filters take, one batch of a shard at a time,
      // as soon as it has it.
      expect(fields(properties)).toEqual([
        'BatchSize',
        'BisectBatchOnFunctionError',
        'DestinationConfig',
        'EventSourceArn',
        'FilterCriteria',
        'FunctionName',
        'FunctionResponseTypes',
        'MaximumRecordAgeInSeconds',
        'MaximumRetryAttempts',
        'ParallelizationFactor',
        'StartingPosition',
      ]);
      expect(properties.ParallelizationFactor).toBe(1);
      expect(properties.StartingPosition).toBe(STARTING_POSITION);
      expect(properties.BatchSize).toBe(local.batchSize);
      expect(properties.FunctionResponseTypes.includes('ReportBatchItemFailures')).toBe(local.reportBatchItemFailures);
      // Lambda checkpoints at the lowest failed sequence number and hands over every record from there.
      expect(local.partialRetry).toBe('fromFirstFailure');
      // Lambda counts the retries; the poller counts the tries, the first included.
      expect(properties.MaximumRetryAttempts + 1).toBe(local.maxAttempts);
      expect(properties.BisectBatchOnFunctionError).toBe(local.bisectOnError);
      expect(properties.MaximumRecordAgeInSeconds).toBe(local.maxRecordAgeSeconds);
      // The same filters: the poller passes over what Lambda would not hand the function.
      expect(
        (properties.FilterCriteria.Filters as { Pattern: string }[]).map((filter) => JSON.parse(filter.Pattern)),
      ).toEqual(local.filters);
      // Named difference: records given up go to this queue on AWS; locally they are logged by ids.
      expect(properties.DestinationConfig).toEqual({
        OnFailure: { Destination: queue(`${pascal(worker)}FailuresDlq`).arn },
      });
    },
  );
});

describe('queues and their mappings', () => {
  it("fan-out: takes its queue's events a batch of BatchSize at a time, each on its own", () => {
    const properties = mapping('fanOut');
    expect(fields(properties)).toEqual([
      'BatchSize',
      'EventSourceArn',
      'FunctionName',
      'FunctionResponseTypes',
      'ScalingConfig',
    ]);
    expect(properties.EventSourceArn).toBe(queue(`${pascal(localFanOut().queue)}Queue`).arn);
    expect(properties.BatchSize).toBe(localFanOut().batchSize);
    expect(properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    // Bounded on AWS by its mapping; locally it runs inside the relay's record (a named difference:
    // one at a time per stream poller, below the bound).
    expect(properties.ScalingConfig).toEqual({ MaximumConcurrency: 5 });
  });

  it('the events queue has no local counterpart: the rules feed it and fan-out alone drains it (a named difference)', () => {
    // Locally the bus calls fan-out directly, so a fan-out failure fails the relay's stream record,
    // which its poller retries with streamToBus's settings, instead of SQS redelivering the event.
    const events = queue(`${pascal(localFanOut().queue)}Queue`);
    expect(fields(events.properties)).toEqual([
      'KmsMasterKeyId',
      'MessageRetentionPeriod',
      'RedrivePolicy',
      'VisibilityTimeout',
    ]);
    // The events carry PHI: under the table's (and bus's) customer-managed key.
    expect(events.properties.KmsMasterKeyId).toBe(model.table.keyArn);
    expect(
      model.eventSourceMappings
        .filter((candidate) => candidate.properties.EventSourceArn === events.arn)
        .map((candidate) => candidate.function),
    ).toEqual(['fanOut']);
    const targets = model.rules.flatMap((rule) => rule.properties.Targets.map((target: { Arn: string }) => target.Arn));
    expect(targets.filter((arn) => arn === events.arn)).toHaveLength(EVENT_RULES.length);
  });

  it('deliveries: one job per run, each succeeding or failing alone, as with partial batch responses', () => {
    const properties = mapping('deliverWebhook');
    expect(fields(properties)).toEqual([
      'BatchSize',
      'EventSourceArn',
      'FunctionName',
      'FunctionResponseTypes',
      'ScalingConfig',
    ]);
    expect(properties.EventSourceArn).toBe(queue('DeliveriesQueue').arn);
    expect(properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    // Named difference: fewer attempts in flight locally than AWS's invocations times their batch.
    expect(LOCAL_DELIVERY_CONCURRENCY).toBeLessThanOrEqual(
      properties.ScalingConfig.MaximumConcurrency * properties.BatchSize,
    );
  });

  it('deliveries queue: visibility timeout, redrive after maxReceiveCount, no default delay, retention past every retry', () => {
    const { properties } = queue('DeliveriesQueue');
    const local = localDeliveriesQueue();
    expect(fields(properties)).toEqual([
      'KmsMasterKeyId',
      'MessageRetentionPeriod',
      'RedrivePolicy',
      'VisibilityTimeout',
    ]);
    // Under the customer-managed key: the local stand-in's send checks kms:GenerateDataKey through SQS too.
    expect(properties.KmsMasterKeyId).toBe(model.table.keyArn);
    expect(properties.VisibilityTimeout).toBe(local.visibilityTimeoutSeconds);
    expect(properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: queue('DeliveriesDlq').arn,
      maxReceiveCount: local.maxReceiveCount,
    });
    // No DelaySeconds: every send names its own delay, to SQS and to the local timers alike.
    expect(properties.DelaySeconds).toBeUndefined();
    // The journal keeps a job until it is done; SQS keeps it longer than the whole retry schedule.
    const schedule = config().WEBHOOK_RETRY_SCHEDULE.reduce((sum, seconds) => sum + seconds, 0);
    expect(properties.MessageRetentionPeriod).toBeGreaterThan(schedule);
  });
});

describe('bus rules', () => {
  // The rules on the stage's bus (the photos bucket's rule is on the default bus: below).
  const busRules = () => model.rules.filter((rule) => rule.properties.EventPattern && rule.properties.EventBusName);

  it("are the rules of lib/events/rules.ts, with the same patterns, each to fan-out's queue", () => {
    expect(
      busRules()
        .map((rule) => rule.id)
        .sort(),
    ).toEqual(EVENT_RULES.map((rule) => rule.name).sort());
    for (const rule of EVENT_RULES) {
      const { properties } = busRules().find((candidate) => candidate.id === rule.name)!;
      expect(fields(properties), rule.name).toEqual([
        'Description',
        'EventBusName',
        'EventPattern',
        'State',
        'Targets',
      ]);
      expect(properties.EventPattern, rule.name).toEqual(rule.pattern);
      expect(properties.State).toBe('ENABLED');
      // No RetryPolicy: EventBridge's default. Locally the bus is a call, and its failure fails the stream record.
      expect(properties.Targets).toEqual([
        {
          Id: 'Target0',
          Arn: queue(`${pascal(rule.target.queue)}Queue`).arn,
          DeadLetterConfig: { Arn: queue(`${pascal(rule.target.queue)}Dlq`).arn },
        },
      ]);
      expect(rule.target.queue, rule.name).toBe(localFanOut().queue);
    }
  });

  it('route every event type as the synthesized patterns do, and an unknown type nowhere', () => {
    for (const type of [...EVENT_TYPES, 'webhook.test', 'client.merged']) {
      const event = contractEvent(type);
      const synthesized = busRules()
        .filter((rule) => matches(rule.properties.EventPattern as EventPattern, busEvent(event)))
        .map((rule) => rule.id);
      expect(
        fanOutRoutes(event).map((rule) => rule.name),
        type,
      ).toEqual(synthesized);
      expect(synthesized, type).toHaveLength((EVENT_TYPES as readonly string[]).includes(type) ? 1 : 0);
    }
  });
});

describe("the photos bucket's notification", () => {
  it('invokes confirmPhotoUploads for objects created under its prefix, the prefix the local store hands it', () => {
    const [rule, ...others] = model.rules.filter(
      (candidate) => candidate.properties.EventPattern && !candidate.properties.EventBusName,
    );
    expect(others).toEqual([]);
    expect(rule.properties.EventPattern).toMatchObject({
      source: ['aws.s3'],
      'detail-type': ['Object Created'],
      detail: { object: { key: [{ prefix: workers.confirmPhotoUploads.trigger.prefix }] } },
    });
    expect(rule.properties.Targets).toHaveLength(1);
    expect(rule.properties.Targets[0].Arn).toBe(model.functions.confirmPhotoUploads.functionArn);
  });
});

describe('the sweep schedules', () => {
  it.each([
    ['sweepReminders', 15_000],
    ['sweepWebhookRetries', 15_000],
    ['sweepPlans', 15 * 60_000],
    ['sweepWaitlist', 15_000],
  ] as const)(
    `%s sweeps on its schedule, ${LOCAL_SWEEP_SPEEDUP} times as often locally (a named difference)`,
    (worker, localMs) => {
      const schedules = model.rules.filter((rule) => rule.properties.ScheduleExpression);
      expect(schedules.map((rule) => rule.id).sort()).toEqual([
        'SweepPlansSchedule',
        'SweepRemindersSchedule',
        'SweepWaitlistSchedule',
        'SweepWebhookRetriesSchedule',
      ]);
      const { properties } = schedules.find((rule) => rule.id === `${pascal(worker)}Schedule`)!;
      // CDK writes whole hours as hours: rate(1 hour).
      const [, count, unit] = /^rate\((\d+) (minute|hour)s?\)$/.exec(properties.ScheduleExpression) ?? [];
      const minutes = Number(count) * (unit === 'hour' ? 60 : 1);
      expect(localSweepEveryMs(worker) * LOCAL_SWEEP_SPEEDUP).toBe(minutes * 60_000);
      expect(localSweepEveryMs(worker)).toBe(localMs);
      expect(properties.Targets).toHaveLength(1);
      expect(properties.Targets[0].Arn).toBe(model.functions[worker].functionArn);
      // Named difference: EventBridge retries a failed sweep twice within 5 intervals, then its dead-letter
      // queue; locally a failed sweep is logged and the next one runs an interval later (sweeps catch up).
      expect(properties.Targets[0].RetryPolicy).toEqual({
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: minutes * 5 * 60,
      });
    },
  );
});

describe('local delivery with these settings', () => {
  let practice: TestPractice;
  let receiver: Receiver;
  beforeAll(async () => {
    process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
    resetConfig();
    practice = await makePractice();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const subscribe = async (path: string) => {
    const response = await call('POST', '/v1/webhooks', {
      token: practice.adminToken,
      body: { url: receiver.url(path), events: ['*'] },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data as { id: string };
  };

  it('delivers what a rule routes, and an event no rule matches not at all', async () => {
    const path = `/routed-${randomUUID()}`;
    const hook = await subscribe(path);
    const delivery = startLocalDelivery({ dataDir: mkdtempSync(join(tmpdir(), 'wiring-')), schedule: [] });
    try {
      const routed = contractEvent('appointment.created', practice.medspaId);
      const unrouted = contractEvent('client.merged', practice.medspaId);
      expect(fanOutRoutes(unrouted)).toEqual([]);
      await delivery.publish([unrouted, routed]);
      // Fan-out is done when publish resolves: the log has the routed event's entry only.
      const logged = await call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=100`, { token: practice.adminToken });
      expect(logged.body.data.map((entry: { event_id: string }) => entry.event_id)).toEqual([routed.id]);
      await waitFor('the routed event at the receiver', () =>
        receiver.accepted.some((request) => request.headers['webhook-id'] === routed.id),
      );
      await waitFor('the queue to drain', () => delivery.pending() === 0);
      expect(
        receiver.requests.filter((request) => request.path === path).map((request) => request.headers['webhook-id']),
      ).toEqual([routed.id]);
    } finally {
      await delivery.stop();
    }
  });

  it('a job whose runs keep failing comes back after the visibility timeout, then goes to the dead letters after maxReceiveCount runs', async () => {
    const path = `/poison-${randomUUID()}`;
    const hook = await subscribe(path);
    // A secret that cannot be decrypted makes every run throw, as an unreachable table would.
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(practice.medspaId, 'WEBHOOK', hook.id),
        UpdateExpression: 'SET secret_enc = :broken',
        ExpressionAttributeValues: { ':broken': 'broken' },
      }),
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'wiring-'));
    const errors = vi.spyOn(logger, 'error');
    const delivery = startLocalDelivery({ dataDir, schedule: [], visibilityTimeoutSeconds: 0.05, maxReceiveCount: 3 });
    try {
      const event = contractEvent('client.created', practice.medspaId);
      await delivery.publish([event]);
      await waitFor('the job to leave the queue', () => delivery.pending() === 0);
      const lines = readFileSync(join(dataDir, DEAD_LETTER_FILE), 'utf8').trim().split('\n');
      expect(lines.map((line) => JSON.parse(line))).toMatchObject([
        { subscription_id: hook.id, attempt: 1, event: { id: event.id } },
      ]);
      const messages = errors.mock.calls.map(([message]) => String(message));
      expect(messages.filter((message) => /runs again after the visibility timeout/.test(message))).toHaveLength(2);
      expect(messages.filter((message) => /moved to the dead letters/.test(message))).toHaveLength(1);
      expect(receiver.requests.filter((request) => request.path === path)).toEqual([]);
    } finally {
      errors.mockRestore();
      await delivery.stop();
    }
  });
});
