import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryJob, DeliveryQueue } from './jobs';

/** SQS's longest DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = 900;

/** Whole seconds (rounded up, so a job never comes back before it is due), at most 15 minutes. */
export const sqsDelaySeconds = (seconds: number) => Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));

/**
 * The `deliveries` queue on AWS: one immutable job per message with its own `due_at`, waits past
 * SQS's 15 minutes hop by hop (processDeliveryJob; docs/decisions/0005-webhook-retries-hop-by-hop.md).
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
