import { startLocalDelivery } from '../../lib/webhooks/local-delivery';
import { startEventSource } from './event-source';

/**
 * The event half of `npm start`, in process, as the workers of lib/workers run on AWS: the table
 * stream (poller + the same pipeline as `streamToBus`), the bus rules of lib/events/rules.ts,
 * fan-out and signed deliveries with the retry schedule of WEBHOOK_RETRY_SCHEDULE, and the
 * reminder sweeper. Stopping waits for the work in flight; both sides keep their position under
 * DATA_DIR (stream checkpoint, delivery journal), so a restart loses nothing.
 */
export async function startLocalPipeline(options: { sweepEveryMs?: number } = {}) {
  const delivery = startLocalDelivery();
  const source = await startEventSource({ publish: (events) => delivery.publish(events), sweepEveryMs: options.sweepEveryMs ?? 15_000 });
  return {
    async stop() {
      await source.stop();
      await delivery.stop();
    },
  };
}
