import type { SQSRecord } from 'aws-lambda';
import {
  ContractEventSchema,
  DeliveryJob,
  fanOut,
  processDeliveryJob,
  type DeliveryOptions,
  type DeliveryQueue,
} from './jobs';

/**
 * The record handlers of the two SQS-fed workers (functions/workers/fanOut.ts, deliverWebhook.ts),
 * apart from their Lambda wiring so tests drive them with any queue. A record that throws is a
 * batch item failure: SQS delivers it again, and after the queue's maxReceiveCount to its DLQ.
 */

/** `events` queue: EventBridge → SQS, so the body is the EventBridge event and `detail` the ContractEvent. */
export const fanOutRecordHandler =
  (queue: DeliveryQueue, options: DeliveryOptions = {}) =>
  async (record: SQSRecord): Promise<void> => {
    const envelope = JSON.parse(record.body) as { detail?: unknown };
    const event = ContractEventSchema.parse(envelope.detail);
    await fanOut(event, queue, options);
  };

/** `deliveries` queue: one job per message. */
export const deliveryRecordHandler =
  (queue: DeliveryQueue, options: DeliveryOptions = {}) =>
  async (record: SQSRecord): Promise<void> => {
    await processDeliveryJob(DeliveryJob.parse(JSON.parse(record.body)), queue, options);
  };
