import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { MAX_QUEUE_DELAY_SECONDS, type DeliveryJob, type DeliveryQueue } from './jobs';

/** SQS's longest DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = MAX_QUEUE_DELAY_SECONDS;

/** Whole seconds (rounded up, so a job never comes back before it is due), at most 15 minutes. */
export const sqsDelaySeconds = (seconds: number) => Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));

/**
 * The `deliveries` queue on AWS: one immutable job per message with its own `due_at`. Waits past
 * SQS's 15 minutes never reach it: they wait in the table until the retry sweep sends them
 * (processDeliveryJob, ./retry-sweep.ts; docs/decisions/0021-webhook-retries-in-minute-partitions.md).
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: Pick<SQSClient, 'send'> = new SQSClient({}),
  ) {}

  async send(job: DeliveryJob, delaySeconds: number): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(job),
        DelaySeconds: sqsDelaySeconds(delaySeconds),
      }),
    );
  }
}
