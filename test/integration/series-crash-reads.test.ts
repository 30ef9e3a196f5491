import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { loadSecretKeys } from '../../lib/crypto/named-secret';
import * as publicRoutes from '../../lib/routes/public-booking';
import { bookOnline, rescheduleOnlineBooking } from '../../lib/use-cases/public-booking';
import { seriesFaults } from '../../lib/use-cases/series';
import type { PublicBookingInput } from '../../lib/schemas/public-booking';
import { call } from '../fixtures/api';
import { belowHttp } from '../fixtures/below-http';
import { makeService } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { makeOnlineScene, onlineBooking, outcome } from '../fixtures/online-booking';
import { BOOKING_DAY, book, claimItems, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * A series that committed but died before making its claims permanent (docs/decisions/0025, point
 * 4): once its pending claims have expired, every strong booking read still counts them, by
 * reading the series item. Here for the public booking, its reschedule and a hold's confirm, each
 * inside its own route's function (so their `series` read grant is exercised).
 */

afterEach(() => {
  setClock(null);
  seriesFaults.beforeWrite = undefined;
});

const occurrence = (index: number, hhmm = '10:00') => nyTime(addDays(BOOKING_DAY, index * 7), hhmm);

/** A committed series of `count` weekly 10:00 occurrences whose claims were never made permanent, past their expiry. */
async function crashedSeries(scene: Scene, serviceId: string, count = 2) {
  seriesFaults.beforeWrite = (step) => {
    if (step === 'finalize') throw new Error('injected: the request dies after the commit');
  };
  const created = await call('POST', '/v1/appointment-series', {
    token: scene.practice.adminToken,
    body: {
      client_id: scene.client.id,
      service_id: serviceId,
      provider_id: scene.provider.id,
      scheduled_at: occurrence(0),
      count,
      every_days: 7,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  seriesFaults.beforeWrite = undefined;
  return created.body.data.appointments as { id: string }[];
}

/** Past the pending claims' life (120 s): from here only the series item says they hold. */
const pastClaims = () => setClock(() => new Date(Date.now() + 121_000));

/** What the route's handler reads first (lib/http/handler.ts): the key manage tokens are sealed with. */
const manageTokenKeys = () => loadSecretKeys('cursor');

/** A public booking at `scheduledAt`, inside createPublicBooking's function. */
const bookPublicly = (scene: Scene, scheduledAt: string) =>
  belowHttp(
    publicRoutes.createPublicBooking,
    null,
    { body: onlineBooking(scene, { scheduled_at: scheduledAt }) },
    async ({ body, now, writes }) => {
      await manageTokenKeys();
      return bookOnline(scene.practice.medspaId, body as PublicBookingInput, now, writes);
    },
  );

const seriesEntryOf = async (scene: Scene, appointmentId: string) =>
  (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).some(
    (bucket) => appointmentId in bucket.entries,
  );

describe("a crashed committed series' expired claims still hold", () => {
  it('a public booking and a public reschedule onto an occurrence are SLOT_UNAVAILABLE, another series names it', async () => {
    const scene = await makeOnlineScene();
    const { medspaId } = scene.practice;
    // Booked before the series, elsewhere: the booking the reschedule moves.
    const mine = await bookPublicly(scene, occurrence(1, '14:00'));
    await crashedSeries(scene, scene.service.id);
    pastClaims();

    expect(await outcome(bookPublicly(scene, occurrence(0)))).toBe('SLOT_UNAVAILABLE');
    const moved = belowHttp(
      publicRoutes.reschedulePublicBooking,
      null,
      { params: { appointment_id: mine.appointment_id }, body: { scheduled_at: occurrence(1) } },
      async ({ params, body, now, writes }) => {
        await manageTokenKeys();
        return rescheduleOnlineBooking(medspaId, params.appointment_id, mine.manage_token, {
          now,
          writes,
          scheduledAt: body.scheduled_at,
        });
      },
    );
    expect(await outcome(moved)).toBe('SLOT_UNAVAILABLE');
    // Another series over it (its own function, its own `series` read) names the occurrence.
    const again = await call('POST', '/v1/appointment-series', {
      token: scene.practice.adminToken,
      body: {
        client_id: scene.client.id,
        service_id: scene.service.id,
        provider_id: scene.provider.id,
        scheduled_at: occurrence(1),
        count: 2,
        every_days: 7,
      },
    });
    expect(again.body.error?.details).toEqual([expect.objectContaining({ index: 0, code: 'PROVIDER_UNAVAILABLE' })]);
    // A time the series does not hold is still free to both.
    expect(await outcome(bookPublicly(scene, occurrence(0, '12:00')))).toBe('ok');
  });

  it("a hold's confirm next to an occurrence, in its hour's bucket, books and keeps the series' claim", async () => {
    const scene = await makeOnlineScene();
    // 10:00-10:30 occurrences; the hold is 10:30-11:30: both claim the 10:00 bucket, neither overlaps.
    const short = await makeService(scene.practice, { provider_ids: [scene.provider.id], duration_minutes: 30 });
    const [first] = await crashedSeries(scene, short.id);
    const held = await call('POST', '/v1/holds', {
      token: scene.practice.adminToken,
      body: { service_id: scene.service.id, provider_id: scene.provider.id, scheduled_at: occurrence(0, '10:30') },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    pastClaims();

    const confirmed = await call('POST', `/v1/holds/${held.body.data.id}/confirm`, {
      token: scene.practice.adminToken,
      body: { client_id: scene.client.id },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    // The confirm rewrote the bucket as read: the series' entry was counted, not pruned as expired.
    expect(await seriesEntryOf(scene, first!.id)).toBe(true);
    const over = await book(scene, { service_id: short.id, scheduled_at: occurrence(0) });
    expect(over.body.error?.details).toEqual([
      expect.objectContaining({ reason: 'overlap', appointment_id: first!.id }),
    ]);
  });
});
