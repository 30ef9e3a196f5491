import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { startLocalPipeline } from '../../infra/local/pipeline';
import { call } from '../fixtures/api';
import { startReceiver, type Receiver } from '../fixtures/receiver';
import { book, makeScene, type Scene } from '../fixtures/scheduling';
import { waitFor } from '../fixtures/wait';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

/** What `npm start` runs: a subscription to a local receiver and a booking make a signed `appointment.created` arrive. */
let receiver: Receiver;
let pipeline: Awaited<ReturnType<typeof startLocalPipeline>>;
let scene: Scene;

beforeAll(async () => {
  process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
  process.env.WEBHOOK_RETRY_SCHEDULE = '1s,1s,1s';
  resetConfig();
  receiver = await startReceiver();
  scene = await makeScene();
  pipeline = await startLocalPipeline({ sweepEveryMs: 60_000 });
});

afterAll(async () => {
  await pipeline?.stop();
  await receiver?.close();
});

describe('the local event pipeline (npm start)', () => {
  it('a booking reaches a subscriber as a signed appointment.created, and a cancel as status_changed + cancelled', async () => {
    const created = await call('POST', '/v1/webhooks', {
      token: scene.practice.adminToken,
      body: { url: receiver.url('/hooks'), events: ['appointment.created', 'appointment.cancelled'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.data.secret as string;

    const booked = (await book(scene)).body.data;
    const delivered = await waitFor('appointment.created at the receiver', () =>
      receiver.accepted.find((request) => JSON.parse(request.body).data?.object?.id === booked.id),
    );
    const payload = new Webhook(secret).verify(delivered.body, delivered.headers) as {
      type: string;
      medspa_id: string;
      data: { object: Record<string, unknown> };
    };
    expect(payload).toMatchObject({
      type: 'appointment.created',
      medspa_id: scene.practice.medspaId,
      data: { object: { id: booked.id, status: 'scheduled' } },
    });
    expect(payload.data.object).not.toHaveProperty('pk');

    await call('POST', `/v1/appointments/${booked.id}/cancel`, { token: scene.practice.adminToken, body: {} });
    const cancelled = await waitFor('appointment.cancelled at the receiver', () =>
      receiver.accepted.find((request) => JSON.parse(request.body).type === 'appointment.cancelled'),
    );
    expect(JSON.parse(cancelled.body).data.object).toMatchObject({ id: booked.id, status: 'cancelled' });
    // Only the chosen types arrive (status_changed was not subscribed).
    expect(receiver.accepted.map((request) => JSON.parse(request.body).type).sort()).toEqual([
      'appointment.cancelled',
      'appointment.created',
    ]);
  });
});
