import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config';
import { tableName } from '../../lib/db/client';
import type { ContractEvent } from '../../lib/events/types';
import { startEventSource } from '../../infra/local/event-source';
import { call } from '../fixtures/api';
import { makeScene } from '../fixtures/scheduling';
import { localTimeInDays } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();
// The subscription below names a receiver on 127.0.0.1 (nothing delivers here: `publish` is a list).
process.env.ALLOW_LOCAL_WEBHOOKS = 'true';

// The local server's event source end to end on DynamoDB Local: API calls -> table stream ->
// poller -> pipeline -> `publish`, and the reminder sweeper on an injected clock.

async function waitFor(condition: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('startEventSource', () => {
  it('publishes the events of API calls and the scheduled reminders, then stops', async () => {
    const published: ContractEvent[] = [];
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    let sweeps = 0;
    const source = await startEventSource({
      publish: async (events) => {
        published.push(...events);
      },
      now,
      sweepEveryMs: 50,
      poller: { idleDelayMs: 25 },
      onSweep: () => (sweeps += 1),
    });
    try {
      const scene = await makeScene();
      const token = scene.practice.adminToken;
      const ofPractice = (type: string) =>
        published.filter((event) => event.medspa_id === scene.practice.medspaId && event.type === type);
      // Only events a subscription takes are published: from here on, every one.
      const subscribed = await call('POST', '/v1/webhooks', {
        token,
        body: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      });
      expect(subscribed.status).toBe(201);
      const client = await call('POST', '/v1/clients', { token, body: { first_name: 'Eve', last_name: 'Source' } });
      await waitFor(
        () => ofPractice('client.created').some((e) => e.data.object.id === client.body.data.id),
        'client.created',
      );

      // Booked inside the lead time (14 days), so its reminder falls due the next minute.
      await call('PATCH', '/v1/practice', { token, body: { reminder_lead_minutes: 60 * 24 * 14 } });
      const booked = await call('POST', '/v1/appointments', {
        token,
        body: {
          client_id: scene.client.id,
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          scheduled_at: localTimeInDays(3, '10:00'),
        },
      });
      expect(booked.status).toBe(201);
      await waitFor(() => ofPractice('appointment.created').length === 1, 'appointment.created');
      expect(ofPractice('appointment.reminder')).toEqual([]);

      // Two minutes later on the injected clock, the sweeper writes the reminder and the stream delivers it.
      offsetMs = 2 * 60_000;
      await waitFor(() => ofPractice('appointment.reminder').length === 1, 'appointment.reminder');
      expect(ofPractice('appointment.reminder')[0].data.object).toMatchObject({ id: booked.body.data.id });
      const sweepsSoFar = sweeps;
      await waitFor(() => sweeps >= sweepsSoFar + 3, 'more sweeps');
      expect(ofPractice('appointment.reminder')).toHaveLength(1);
    } finally {
      await source.stop();
    }
    // The poller kept its position under DATA_DIR.
    expect(existsSync(join(config().DATA_DIR, `stream-checkpoint.${tableName()}.json`))).toBe(true);
  });
});
