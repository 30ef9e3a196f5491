import { startLocalDelivery } from '../../lib/webhooks/local-delivery';
import { workers } from '../../lib/workers';
import { startEventSource } from './event-source';

/**
 * The local sweeps (reminders, webhook retries) run this many times as often as their schedule (every 15 s for
 * `rate(1 minute)`), so a reminder shows up soon after it falls due while trying things out. A
 * deliberate difference from AWS, asserted in test/integration/local-wiring.test.ts; sweeps are
 * idempotent, so more of them change nothing but latency.
 */
export const LOCAL_SWEEP_SPEEDUP = 4;

/** A local sweep's interval: its worker's schedule (lib/workers) sped up by LOCAL_SWEEP_SPEEDUP. */
export const localSweepEveryMs = (
  worker: 'sweepReminders' | 'sweepWebhookRetries' | 'sweepPlans' | 'sweepWaitlist' = 'sweepReminders',
) => (workers[worker].trigger.everyMinutes * 60_000) / LOCAL_SWEEP_SPEEDUP;

/**
 * The event half of `npm start`, in process, as the workers of lib/workers run on AWS: the table
 * stream (a poller per stream worker, with its mapping's settings), the bus rules of
 * lib/events/rules.ts, fan-out and signed deliveries with the retry schedule of
 * WEBHOOK_RETRY_SCHEDULE (each wait ±20%, as on AWS; waits past 15 minutes swept from the table),
 * and the reminder and plan sweepers. Stopping waits
 * for the work in flight; both sides keep their position under DATA_DIR (stream checkpoints,
 * delivery journal), so a restart loses nothing.
 */
export async function startLocalPipeline(options: { sweepEveryMs?: number } = {}) {
  const delivery = startLocalDelivery({
    random: Math.random,
    sweepEveryMs: options.sweepEveryMs ?? localSweepEveryMs('sweepWebhookRetries'),
  });
  const source = await startEventSource({
    publish: (events) => delivery.publish(events),
    sweepEveryMs: options.sweepEveryMs ?? localSweepEveryMs(),
    planSweepEveryMs: localSweepEveryMs('sweepPlans'),
    waitlistSweepEveryMs: localSweepEveryMs('sweepWaitlist'),
  });
  return {
    async stop() {
      await source.stop();
      await delivery.stop();
    },
  };
}
