import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent } from 'aws-lambda';
import { deliveriesQueue } from '../../lib/webhooks/sqs-worker';
import { fanOutRecordHandler } from '../../lib/webhooks/workers';

/** `events` queue (EventBridge rule → SQS) → one delivery job per interested subscription on the `deliveries` queue. */
const processor = new BatchProcessor(EventType.SQS);
const recordHandler = fanOutRecordHandler(deliveriesQueue());

export const handler = (event: SQSEvent, context: Context) =>
  processPartialResponse(event, recordHandler, processor, { context });
