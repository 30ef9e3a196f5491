import { join } from 'node:path';
import type { Construct } from 'constructs';
import { Duration, NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type EventPattern as CdkEventPattern, Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction, SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
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
    const { table, bus, secrets } = props.data;
    const alarmAction = new SnsAction(props.alarmTopic);

    const deadLetterQueue = (name: string) => {
      const queue = new Queue(this, `${pascal(name)}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
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
        encryption: QueueEncryption.SQS_MANAGED,
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
      const asyncDlq = trigger.kind === 'schedule' ? deadLetterQueue(name) : undefined;
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
      fn.bindTable(table, def.binds.writes);
      if (def.binds.bus) fn.bindBus(bus);
      for (const secret of def.binds.secrets ?? []) fn.bindSecret(secret, secrets[secret]);
      for (const queue of def.binds.queues ?? []) fn.bindQueue(queue, queueNamed(queue));

      if (trigger.kind === 'stream') {
        const failures = deadLetterQueue(`${name}-failures`);
        fn.fn.addEventSource(
          new DynamoEventSource(table, {
            // From the oldest record still in the stream: an event is never skipped, at worst sent twice.
            startingPosition: StartingPosition.TRIM_HORIZON,
            batchSize: streamMappingOf(trigger).batchSize,
            reportBatchItemFailures: true,
            bisectBatchOnError: true,
            retryAttempts: streamMappingOf(trigger).maxRetries,
            maxRecordAge: Duration.seconds(streamMappingOf(trigger).maxRecordAgeSeconds),
            onFailure: new SqsDlq(failures),
          }),
        );
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
        fn.fn.addEventSource(
          new SqsEventSource(queueNamed(trigger.queue), {
            batchSize: queueSettingsOf({ ...def, trigger }).batchSize,
            reportBatchItemFailures: true,
            // Never more pollers than reserved executions: a throttled receive would count as an attempt.
            maxConcurrency: def.reservedConcurrency ? Math.max(2, def.reservedConcurrency) : undefined,
          }),
        );
        acknowledge(
          fn,
          bothPacks(
            undefined,
            'LambdaDLQ',
            `Invoked synchronously by the SQS mapping; the ${trigger.queue} queue's redrive policy moves exhausted messages to its dead-letter queue (alarmed).`,
          ),
        );
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
        acknowledge(
          fn,
          bothPacks(
            undefined,
            'LambdaConcurrency',
            `${name} is bounded by its trigger (batch size and mapping concurrency).`,
          ),
        );
      }
    }

    for (const rule of props.rules) {
      this.rules[rule.name] = new Rule(this, rule.name, {
        eventBus: bus,
        description: rule.description,
        eventPattern: cdkEventPattern(rule.pattern),
        // EventBridge retries a failed send for up to 24 h, then parks the event with the queue's own DLQ.
        targets: [
          new SqsQueue(queueNamed(rule.target.queue), { deadLetterQueue: this.deadLetterQueues[rule.target.queue] }),
        ],
      });
    }
  }
}
