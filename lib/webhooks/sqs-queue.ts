import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryJob, DeliveryQueue } from './jobs';

/** SQS's longest DelaySeconds. */
export const MAX_SQS_DELAY_SECONDS = 900;

/** Whole seconds (rounded up, so a job never comes back before it is due), at most 15 minutes. */
export const sqsDelaySeconds = (seconds: number) => Math.min(MAX_SQS_DELAY_SECONDS, Math.max(0, Math.ceil(seconds)));

/**
 * The `deliveries` queue on AWS. Each message is one immutable job carrying its own `due_at`.
 * Waits longer than SQS's 15-minute DelaySeconds go hop by hop: a job that arrives early is sent
 * again with the rest of its wait (processDeliveryJob does it), so a 10 h retry is 40 small
 * messages. Chosen over ChangeMessageVisibility because it keeps scheduling out of the receive
 * machinery: no dependence on receipt handles, the 12 h visibility cap, receive counts eating
 * into the DLQ's maxReceiveCount, or partial-batch failures that mean "later" rather than "broken"
 * (a batch item failure here always means an error worth a redelivery and, in the end, the DLQ).
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly queueUrl: string,
    private readonly client: Pick<SQSClient, 'send'> = new SQSClient({}),
  ) {}

  async send(job: DeliveryJob, delaySeconds: number): Promise<void> {
    await this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job), DelaySeconds: sqsDelaySeconds(delaySeconds) }));
  }
}
