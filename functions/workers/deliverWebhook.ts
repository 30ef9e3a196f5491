import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent } from 'aws-lambda';
import { deliveriesQueue } from '../../lib/webhooks/sqs-worker';
import { deliveryRecordHandler } from '../../lib/webhooks/workers';

/** `deliveries` queue → one signed attempt per job; a failure enqueues the next attempt with its delay (±20%). */
const processor = new BatchProcessor(EventType.SQS);
const recordHandler = deliveryRecordHandler(deliveriesQueue(), { random: Math.random });

export const handler = (event: SQSEvent, context: Context) =>
  processPartialResponse(event, recordHandler, processor, { context });
