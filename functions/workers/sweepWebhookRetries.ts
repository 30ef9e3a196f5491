import { clock } from '../../lib/clock';
import { logger } from '../../lib/log';
import { sweepWebhookRetries } from '../../lib/webhooks/retry-sweep';
import { deliveriesQueue } from '../../lib/webhooks/sqs-worker';

const queue = deliveriesQueue();

/** Scheduled every minute: webhook retries that fell due go to the `deliveries` queue (lib/webhooks/retry-sweep.ts). */
export const handler = async () => {
  const result = await sweepWebhookRetries(clock().now(), queue);
  logger.info('webhook retries swept', { ...result });
  return result;
};
