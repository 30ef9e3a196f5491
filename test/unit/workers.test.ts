import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queueUrlEnv, workerQueues, workers, type WorkerDef } from '../../lib/workers';

const root = join(import.meta.dirname, '../..');

describe('the workers table', () => {
  it('has the event pipeline of the API reference (webhooks and events)', () => {
    expect(Object.keys(workers).sort()).toEqual([
      'aggregateReports',
      'confirmPhotoUploads',
      'deliverWebhook',
      'fanOut',
      'streamToBus',
      'sweepPlans',
      'sweepReminders',
      'sweepWaitlist',
      'sweepWebhookRetries',
      'waitlistOffers',
    ]);
    expect(workers.aggregateReports.trigger.kind).toBe('stream');
    expect(workers.streamToBus.trigger.kind).toBe('stream');
    expect(workers.streamToBus.binds.bus).toBe(true);
    expect(workers.fanOut.trigger).toMatchObject({ kind: 'queue', queue: 'events' });
    expect(workers.deliverWebhook.trigger).toMatchObject({ kind: 'queue', queue: 'deliveries' });
    expect(workers.sweepReminders.trigger).toEqual({ kind: 'schedule', everyMinutes: 1 });
    expect(workers.sweepWebhookRetries.trigger).toEqual({ kind: 'schedule', everyMinutes: 1 });
    expect(workers.sweepPlans.trigger).toEqual({ kind: 'schedule', everyMinutes: 60 });
    expect(workers.sweepWaitlist.trigger).toEqual({ kind: 'schedule', everyMinutes: 1 });
    expect(workers.waitlistOffers.trigger.kind).toBe('stream');
    expect(workers.sweepWebhookRetries.binds.queues).toEqual(['deliveries']);
    expect(workers.confirmPhotoUploads.trigger).toEqual({ kind: 'objectCreated', prefix: 'photos/' });
    expect(workers.confirmPhotoUploads.binds.photos).toEqual(['confirm', 'delete']);
  });

  it("names each worker's module functions/workers/<name>, which exists", () => {
    for (const [name, def] of Object.entries(workers)) {
      expect(def.module).toBe(`functions/workers/${name}`);
      expect(existsSync(join(root, `${def.module}.ts`)), def.module).toBe(true);
    }
  });

  it('declares each queue once and sends only to declared queues', () => {
    const queues = workerQueues();
    expect([...queues.keys()].sort()).toEqual(['deliveries', 'events']);
    for (const def of Object.values(workers) as WorkerDef[]) {
      for (const queue of def.binds.queues ?? []) expect(queues.has(queue), queue).toBe(true);
    }
    const clash = { a: { ...workers.fanOut }, b: { ...workers.fanOut } };
    expect(() => workerQueues(clash)).toThrow(/triggers both/);
  });

  it('lets a delivery live through the whole backoff before the dead-letter queue', () => {
    const { trigger, timeoutSeconds } = workers.deliverWebhook;
    if (trigger.kind !== 'queue') throw new Error('deliveries is a queue trigger');
    // 1 attempt + 6 retries (5 s, 5 min, 30 min, 2 h, 5 h, 10 h): the 7th failed receive is the last.
    expect(trigger.maxReceiveCount).toBe(7);
    expect(trigger.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(timeoutSeconds!);
  });

  it('names queue URL variables after the queue', () => {
    expect(queueUrlEnv('deliveries')).toBe('DELIVERIES_QUEUE_URL');
    expect(queueUrlEnv('stream-failures')).toBe('STREAM_FAILURES_QUEUE_URL');
  });
});
