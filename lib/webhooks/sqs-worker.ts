import { config } from '../config';
import { SqsDeliveryQueue } from './sqs-queue';

/** The `deliveries` queue of this stage, built once per container; a worker without DELIVERIES_QUEUE_URL fails at cold start. */
export function deliveriesQueue(): SqsDeliveryQueue {
  const url = config().DELIVERIES_QUEUE_URL;
  if (!url) throw new Error('DELIVERIES_QUEUE_URL is not set');
  return new SqsDeliveryQueue(url);
}
