import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import type { StreamRecord } from '../../lib/db/stream';
import { call } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { claimItems, makeScene, type Scene } from '../fixtures/scheduling';
import { useTableStream } from '../fixtures/table-stream';
import {
  at,
  bookedAt,
  cancel,
  entryOf,
  sweepAt,
  waitlisted,
  waitlistedInOrder,
  waitlistWorker,
  windowOf,
} from '../fixtures/waitlist';

/**
 * The waitlist's invariants under concurrency (API reference, waitlist): N-parallel writes and
 * stream records handled at once (Promise.all), no sleeps. One freed time goes to one entry at a
 * time, an entry holds one offer, a redelivered record offers nothing twice, and an offered time
 * is booked once.
 */

useTableStream();
afterEach(() => setClock(null));

const staff = (scene: Scene) => ({ token: scene.practice.adminToken });

/** The appointments' records on the stream (their cancels), for handing to the worker as the test likes. */
const appointmentRecords = (records: StreamRecord[]) =>
  records.filter((record) => (record.dynamodb?.NewImage?.entity as { S?: string } | undefined)?.S === 'APPOINTMENT');

/** Live hold entries in a provider's claim buckets. */
async function liveHoldsOf(scene: Scene, providerId: string) {
  const buckets = await claimItems(scene.practice.medspaId, 'PROVIDER', providerId);
  const ids = new Set<string>();
  for (const bucket of buckets)
    for (const [id, entry] of Object.entries(bucket.entries) as [string, { hold?: true; expires_at?: string }][])
      if (entry.hold && Date.parse(entry.expires_at!) > Date.now()) ids.add(id);
  return ids;
}

describe('waitlist races', () => {
  it('the offered time booked by staff at the same moment as the accept: exactly one wins', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const appointment = await bookedAt(scene, '10:00');
    const entry = await waitlisted(scene);
    await cancel(scene, appointment.id);
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('offered');
    const others = await Promise.all([0, 1, 2].map(() => makeClient(scene.practice)));
    const answers = await Promise.all([
      call('POST', `/v1/waitlist/${entry.id}/accept`, staff(scene)),
      ...others.map((client) =>
        call('POST', '/v1/appointments', {
          ...staff(scene),
          body: {
            client_id: client.id,
            service_id: scene.service.id,
            provider_id: scene.provider.id,
            scheduled_at: at('10:00'),
          },
        }),
      ),
    ]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const listed = await call(
      'GET',
      `/v1/appointments?provider_id=${scene.provider.id}&status=scheduled`,
      staff(scene),
    );
    expect(listed.body.data).toHaveLength(1);
  });

  it('two cancels at once and one fitting entry: one offer', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const ten = await bookedAt(scene, '10:00');
    const eleven = await bookedAt(scene, '11:00');
    const entry = await waitlisted(scene);
    await worker.drain();
    await Promise.all([cancel(scene, ten.id), cancel(scene, eleven.id)]);
    const cancels = appointmentRecords(await worker.read());
    expect(cancels).toHaveLength(2);
    await worker.concurrently(cancels);
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('offered');
    expect(await liveHoldsOf(scene, scene.provider.id)).toEqual(
      new Set([(await entryOf(scene, entry.id)).offer.hold_id]),
    );
  });

  it('two cancels freeing overlapping time at once, two entries: one offer per freed time, one per entry', async () => {
    const scene = await makeScene({ providers: 2 });
    const worker = waitlistWorker();
    const [first, second] = scene.providers;
    const mine = await bookedAt(scene, '10:00', { provider_id: first!.id });
    const theirs = await bookedAt(scene, '10:00', { provider_id: second!.id });
    const entries = await Promise.all([waitlisted(scene), waitlisted(scene)]);
    await worker.drain();
    await Promise.all([cancel(scene, mine.id), cancel(scene, theirs.id)]);
    await worker.concurrently(appointmentRecords(await worker.read()));
    await worker.drain();
    const offers = await Promise.all(entries.map((entry) => entryOf(scene, entry.id)));
    expect(offers.map((offer) => offer.status)).toEqual(['offered', 'offered']);
    expect(new Set(offers.map((offer) => offer.offer.provider_id))).toEqual(new Set([first!.id, second!.id]));
    for (const provider of [first!, second!]) expect((await liveHoldsOf(scene, provider.id)).size).toBe(1);
  });

  it('a stream record redelivered (again and while in flight) offers nothing twice', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    // Two hours freed: room for two offers, if a redelivery made a second one.
    const long = await bookedAt(scene, '10:00', { duration_minutes: 120 });
    const entries = await Promise.all([
      waitlisted(scene, { windows: [windowOf('10:00', '12:00')] }),
      waitlisted(scene, { windows: [windowOf('10:00', '12:00')] }),
    ]);
    await worker.drain();
    await cancel(scene, long.id);
    const [record] = appointmentRecords(await worker.read());
    await worker.concurrently([record!, record!, record!]);
    await worker.concurrently([record!]);
    await worker.drain();
    const statuses = await Promise.all(entries.map(async (entry) => (await entryOf(scene, entry.id)).status));
    expect(statuses.sort()).toEqual(['offered', 'waiting']);
    expect((await liveHoldsOf(scene, scene.provider.id)).size).toBe(1);
  });
  it('an expired offer swept three times at once moves on once: one new offer, one live hold', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const appointment = await bookedAt(scene, '10:00');
    const entries = await waitlistedInOrder(scene, 3);
    const [first, second, third] = entries;
    await worker.drain();
    await cancel(scene, appointment.id);
    await worker.drain();
    const offered = await entryOf(scene, first.id);
    expect(offered.status).toBe('offered');

    const afterExpiry = new Date(Date.parse(offered.offer.expires_at) + 60_000);
    setClock(() => afterExpiry);
    await Promise.all([sweepAt(afterExpiry), sweepAt(afterExpiry), sweepAt(afterExpiry)]);
    await worker.drain();
    const statuses = await Promise.all(entries.map(async (entry) => (await entryOf(scene, entry.id)).status));
    expect(statuses).toEqual(['waiting', 'offered', 'waiting']);
    expect((await liveHoldsOf(scene, scene.provider.id)).size).toBe(1);
    // Swept again: nothing more moves.
    const offeredSecond = (await entryOf(scene, second.id)).offer;
    await sweepAt(afterExpiry);
    expect((await entryOf(scene, second.id)).offer).toEqual(offeredSecond);
    expect((await entryOf(scene, third.id)).status).toBe('waiting');
  });
});
