import { join } from 'node:path';
import type { Construct } from 'constructs';
import { Duration, NestedStack, type NestedStackProps, Names } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import {
  CfnRule,
  type EventPattern as CdkEventPattern,
  type IRuleTarget,
  Rule,
  Schedule,
} from 'aws-cdk-lib/aws-events';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { EventPattern, EventRule } from '../../lib/events/rules';
import {
  queueSettingsOf,
  streamMappingOf,
  workerQueues,
  workerTimeoutSeconds,
  type WorkerDef,
} from '../../lib/workers';
import { AppFunction, type FunctionLogs } from '../constructs/app-function';
import { photosBucketName } from '../constructs/data-store';
import { acknowledge, bothPacks } from '../constructs/nag';
import type { StatefulRefs } from './stateful-refs';
import { pascal, type StageSettings } from './stage-settings';

export interface WorkersStackProps extends NestedStackProps {
  workers: Readonly<Record<string, WorkerDef>>;
  rules: readonly EventRule[];
  data: StatefulRefs;
  settings: StageSettings;
  environment: Record<string, string>;
  projectRoot: string;
  /** Log groups are `<logGroupPrefix>/<worker>`. */
  logGroupPrefix: string;
  logs: FunctionLogs;
  alarmTopic: ITopic;
}

/** lib/events/rules.ts speaks EventBridge's JSON; CDK's pattern type uses camelCase top-level fields. */
export function cdkEventPattern(pattern: EventPattern): CdkEventPattern {
  const fields: Record<string, keyof CdkEventPattern> = {
    source: 'source',
    'detail-type': 'detailType',
    detail: 'detail',
    account: 'account',
    region: 'region',
    resources: 'resources',
  };
  return Object.fromEntries(
    Object.entries(pattern).map(([field, value]) => {
      const mapped = fields[field];
      if (!mapped) throw new Error(`Event pattern field "${field}" is not supported`);
      return [mapped, value];
    }),
  ) as CdkEventPattern;
}

/**
 * An SQS queue (under a customer-managed key) as a rule's target, with its dead-letter queue: what
 * aws-events-targets' SqsQueue does, except that for an encrypted queue CDK's target drops the
 * queue policy's narrowing to the rule (aws:SourceArn) and adds an unconditioned
 * events.amazonaws.com grant to the key's policy. Here both queue policies stay narrowed to the
 * rule, and the key's policy allows EventBridge of this account only (infra/constructs/data-store.ts).
 */
export function encryptedQueueTarget(queue: Queue, deadLetterQueue: Queue): IRuleTarget {
  return {
    bind(rule: Parameters<IRuleTarget['bind']>[0]) {
      const ruleArn = CfnRule.arnForRule(rule);
      for (const [target, sid] of [
        [queue, 'Target'],
        [deadLetterQueue, 'DeadLetter'],
      ] as const) {
        target.addToResourcePolicy(
          new PolicyStatement({
            sid: `EventRule${sid}${Names.nodeUniqueId(rule.node).slice(-40)}`,
            effect: Effect.ALLOW,
            principals: [new ServicePrincipal('events.amazonaws.com')],
            actions: ['sqs:SendMessage'],
            resources: [target.queueArn],
            conditions: { ArnEquals: { 'aws:SourceArn': ruleArn } },
          }),
        );
      }
      return { arn: queue.queueArn, targetResource: queue, deadLetterConfig: { arn: deadLetterQueue.queueArn } };
    },
  };
}

/**
 * The event pipeline from the workers table (lib/workers) and the rules (lib/events/rules.ts):
 * per queue trigger a queue and its dead-letter queue; per worker one function bound as its row
 * says; the stream mapping (partial batch responses, bisect on error, bounded retries, failures
 * to a queue); the schedules; one EventBridge rule per rule row; an alarm on every dead-letter
 * queue and on the stream consumer's errors.
 */
export class WorkersStack extends NestedStack {
  readonly functions: Record<string, AppFunction> = {};
  readonly queues: Record<string, Queue> = {};
  readonly deadLetterQueues: Record<string, Queue> = {};
  readonly rules: Record<string, Rule> = {};

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, { description: `medspa-api ${props.settings.stage}: event pipeline workers`, ...props });
    const { table, bus, secrets, dataKey } = props.data;
    const alarmAction = new SnsAction(props.alarmTopic);
    // The queues of events (and their dead-letter queues) carry the changed records (PHI), as the bus
    // does: under the same customer-managed key. The stream failure queues and the schedule's hold
    // only coordinates (shard, sequence numbers) or the schedule's own event: SQS-managed keys.
    const carriesEvents = new Set(workerQueues(props.workers).keys());
    const encryptionOf = (name: string) =>
      carriesEvents.has(name)
        ? { encryption: QueueEncryption.KMS, encryptionMasterKey: dataKey }
        : { encryption: QueueEncryption.SQS_MANAGED };

    const deadLetterQueue = (name: string) => {
      const queue = new Queue(this, `${pascal(name)}Dlq`, {
        retentionPeriod: Duration.days(14),
        ...encryptionOf(name),
        enforceSSL: true,
      });
      this.deadLetterQueues[name] = queue;
      acknowledge(
        queue,
        bothPacks(
          'SQS3',
          undefined,
          'This queue is itself a dead-letter queue (or failure destination): the end of the line, watched by an alarm.',
        ),
      );
      const alarm = new Alarm(this, `${pascal(name)}DlqAlarm`, {
        alarmDescription: `medspa-api ${props.settings.stage}: messages in the ${name} dead-letter queue (given up)`,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(alarmAction);
      return queue;
    };

    // Queues first: a worker may send to a queue that triggers another.
    for (const [name, { worker, trigger }] of workerQueues(props.workers)) {
      const timeoutSeconds = workerTimeoutSeconds(props.workers[worker]);
      const { visibilityTimeoutSeconds: visibility, maxReceiveCount } = queueSettingsOf({
        ...props.workers[worker],
        trigger,
      });
      // A Lambda SQS mapping's queue must hide a message at least as long as the function may run.
      if (visibility < timeoutSeconds) {
        throw new Error(
          `Queue "${name}": visibility timeout ${visibility}s is shorter than ${worker}'s timeout ${timeoutSeconds}s`,
        );
      }
      const dlq = deadLetterQueue(name);
      this.queues[name] = new Queue(this, `${pascal(name)}Queue`, {
        visibilityTimeout: Duration.seconds(visibility),
        // Longer than the webhook backoff (about 18 h in all) with room for an outage.
        retentionPeriod: Duration.days(4),
        ...encryptionOf(name),
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount },
      });
    }

    const queueNamed = (name: string) => {
      const queue = this.queues[name];
      if (!queue) throw new Error(`Queue "${name}" is not the trigger of any worker`);
      return queue;
    };

    for (const [name, def] of Object.entries(props.workers)) {
      const id = pascal(name);
      const expectedModule = `functions/workers/${name}`;
      if (def.module !== expectedModule) throw new Error(`Worker ${name}: module must be ${expectedModule}`);
      const { trigger } = def;
      if (trigger.kind === 'stream' && def.reservedConcurrency !== undefined) {
        throw new Error(
          `Worker ${name}: a stream worker runs one batch per shard at once; reserved concurrency would throttle the shards over it`,
        );
      }
      // Invoked asynchronously (schedule, object events): failed invocations and deliveries park here.
      const asyncDlq =
        trigger.kind === 'schedule' || trigger.kind === 'objectCreated' ? deadLetterQueue(name) : undefined;
      const fn = new AppFunction(this, id, {
        entry: join(props.projectRoot, `${def.module}.ts`),
        projectRoot: props.projectRoot,
        description: `${name}: ${def.description}`,
        logGroupName: `${props.logGroupPrefix}/${name}`,
        logs: props.logs,
        environment: props.environment,
        timeout: Duration.seconds(workerTimeoutSeconds(def)),
        reservedConcurrency: def.reservedConcurrency,
        deadLetterQueue: asyncDlq,
      });
      this.functions[name] = fn;
      fn.bindTable(table, def.binds.writes, def.binds.reads);
      if (def.binds.bus) fn.bindBus(bus);
      for (const secret of def.binds.secrets ?? []) fn.bindSecret(secret, secrets[secret]);
      for (const queue of def.binds.queues ?? []) fn.bindQueue(queue, queueNamed(queue));
      if (def.binds.photos) fn.bindPhotos(props.data.photos, photosBucketName(props.settings.stage), def.binds.photos);

      if (trigger.kind === 'stream') {
        const failures = deadLetterQueue(`${name}-failures`);
        const mapping = streamMappingOf(trigger);
        // The table without its key: CDK would grant kms:Decrypt on it with no condition. The role
        // decrypts through DynamoDB only (bindTable's kms:ViaService statement), streams included.
        const streamSource = Table.fromTableAttributes(this, `${id}StreamSource`, {
          tableArn: table.tableArn,
          tableStreamArn: table.tableStreamArn,
        });
        fn.fn.addEventSource(
          new DynamoEventSource(streamSource, {
            // From the oldest record still in the stream: an event is never skipped, at worst sent twice.
            startingPosition: StartingPosition.TRIM_HORIZON,
            batchSize: mapping.batchSize,
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            retryAttempts: mapping.maxRetries,
            maxRecordAge: Duration.seconds(mapping.maxRecordAgeSeconds),
            // One batch per shard at once (the default, stated): records of a shard stay in order.
            parallelizationFactor: 1,
            // Only the item kinds the worker acts on invoke it (lib/workers/stream-filter.ts).
            filters: mapping.filters.map((pattern) => FilterCriteria.filter(pattern)),
            onFailure: new SqsDlq(failures),
          }),
        );
        // Falling behind (throttled, failing, or too slow for the write rate) shows here first.
        new Alarm(this, `${id}IteratorAgeAlarm`, {
          alarmDescription: `medspa-api ${props.settings.stage}: ${name} is more than ${mapping.iteratorAgeAlarmSeconds / 60} minutes behind the table stream (records older than ${mapping.maxRecordAgeSeconds / 3600} h are given up to ${name}-failures)`,
          metric: fn.fn.metric('IteratorAge', { period: Duration.minutes(5), statistic: 'Maximum' }),
          threshold: mapping.iteratorAgeAlarmSeconds * 1000,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }).addAlarmAction(alarmAction);
        const errors = new Alarm(this, `${id}ErrorsAlarm`, {
          alarmDescription: `medspa-api ${props.settings.stage}: ${name} failed (the stream batch is retried, then bisected, then sent to ${name}-failures)`,
          metric: fn.fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
        errors.addAlarmAction(alarmAction);
        acknowledge(
          fn,
          bothPacks(
            undefined,
            'LambdaDLQ',
            'Invoked synchronously by the stream mapping, whose on-failure destination is a dead-letter queue (alarmed).',
          ),
        );
      } else if (trigger.kind === 'queue') {
        const queue = queueNamed(trigger.queue);
        const settings = queueSettingsOf({ ...def, trigger });
        // The queue without its key: CDK would grant kms:Decrypt on it with no condition; the role
        // decrypts through SQS only (grantQueueKeyToConsume).
        const source = Queue.fromQueueAttributes(this, `${id}QueueSource`, {
          queueArn: queue.queueArn,
          queueUrl: queue.queueUrl,
        });
        fn.fn.addEventSource(
          new SqsEventSource(source, {
            batchSize: settings.batchSize,
            reportBatchItemFailures: true,
            maxConcurrency: settings.maxConcurrency,
          }),
        );
        fn.grantQueueKeyToConsume(queue);
        acknowledge(
          fn,
          bothPacks(
            undefined,
            'LambdaDLQ',
            `Invoked synchronously by the SQS mapping; the ${trigger.queue} queue's redrive policy moves exhausted messages to its dead-letter queue (alarmed).`,
          ),
        );
      } else if (trigger.kind === 'objectCreated') {
        // S3 sends the photos bucket's events to the default bus (data-store.ts); this rule hands
        // the bucket's created objects under the prefix to the worker. Not a direct S3 -> Lambda
        // notification: that would put the worker's ARN in the stateful stack (a cycle).
        new Rule(this, `${id}ObjectCreated`, {
          description: `${name}: objects created under ${trigger.prefix} in the photos bucket`,
          eventPattern: {
            source: ['aws.s3'],
            detailType: ['Object Created'],
            detail: {
              bucket: { name: [photosBucketName(props.settings.stage)] },
              object: { key: [{ prefix: trigger.prefix }] },
            },
          },
          targets: [
            new LambdaFunction(fn.fn, { deadLetterQueue: asyncDlq, retryAttempts: 8, maxEventAge: Duration.hours(24) }),
          ],
        });
      } else {
        // The same dead-letter queue takes failed invocations (function) and failed deliveries (rule target).
        new Rule(this, `${id}Schedule`, {
          description: `${name}: every ${trigger.everyMinutes} minute(s)`,
          schedule: Schedule.rate(Duration.minutes(trigger.everyMinutes)),
          targets: [
            new LambdaFunction(fn.fn, {
              deadLetterQueue: asyncDlq,
              retryAttempts: 2,
              maxEventAge: Duration.minutes(trigger.everyMinutes * 5),
            }),
          ],
        });
      }
      if (!def.reservedConcurrency) {
        const bound =
          trigger.kind === 'stream'
            ? `one batch per shard of the table stream at once (ParallelizationFactor 1): reserving fewer executions than shards would throttle the shards over it`
            : trigger.kind === 'queue'
              ? `its ${trigger.queue} mapping's MaximumConcurrency (${queueSettingsOf({ ...def, trigger }).maxConcurrency ?? 'unset'}) of batches of ${queueSettingsOf({ ...def, trigger }).batchSize}`
              : trigger.kind === 'objectCreated'
                ? 'the rate of photo uploads (one short invocation per object)'
                : `its schedule, one run every ${trigger.everyMinutes} minute(s)`;
        if (trigger.kind === 'queue' && queueSettingsOf({ ...def, trigger }).maxConcurrency === undefined) {
          throw new Error(`Worker ${name}: a queue worker needs reserved concurrency or trigger.maxConcurrency`);
        }
        acknowledge(fn, bothPacks(undefined, 'LambdaConcurrency', `${name} is bounded by ${bound}.`));
      }
    }

    for (const rule of props.rules) {
      this.rules[rule.name] = new Rule(this, rule.name, {
        eventBus: bus,
        description: rule.description,
        eventPattern: cdkEventPattern(rule.pattern),
        // EventBridge retries a failed send for up to 24 h, then parks the event with the queue's own DLQ.
        targets: [encryptedQueueTarget(queueNamed(rule.target.queue), this.deadLetterQueues[rule.target.queue])],
      });
    }
  }
}
