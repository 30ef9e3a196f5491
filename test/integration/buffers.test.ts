import { describe, expect, it } from 'vitest';
import { bookOnline } from '../../lib/use-cases/public-booking';
import { publicAvailability } from '../../lib/use-cases/public-catalog';
import { call } from '../fixtures/api';
import { makeService } from '../fixtures/builders';
import { utc } from '../fixtures/dates';
import { enableOnlineBooking, onlineBooking, outcome } from '../fixtures/online-booking';
import { book, BOOKING_DAY, booked, claimItems, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Buffers (contract section 11): the held time [scheduled_at - before, end_at + after) is what
 * claims cover and what must overlap no other booking's; working hours and time off judge the
 * client's time only. Slots, the availability check and the search use the same rule.
 */
const DAY = BOOKING_DAY;

/** The scene (providers 09:00-17:00 New York) with a 60-minute service holding 15 minutes of cleanup after. */
async function cleanupScene(options: { providers?: number } = {}) {
  const scene = await makeScene(options);
  const laser = await makeService(scene.practice, {
    provider_ids: scene.providers.map((p: { id: string }) => p.id),
    duration_minutes: 60,
    buffer_after_minutes: 15,
  });
  return { scene, laser };
}

const slotStarts = async (scene: Scene, query: Record<string, string>) => {
  const response = await call(
    'GET',
    `/v1/providers/${scene.provider.id}/slots?${new URLSearchParams({ date: DAY, ...query })}`,
    { token: scene.practice.adminToken },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.data as { slot_start: string }[]).map((s) => s.slot_start);
};

describe('buffers', { timeout: 60_000 }, () => {
  it('a booking ending at 11:00 with 15 minutes after blocks 11:10 on its provider and room, not on another provider', async () => {
    const { scene, laser } = await cleanupScene({ providers: 2 });
    const first = await booked(scene, { service_id: laser.id, room_id: scene.room.id });
    expect(first).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 15 });
    // The claim covers the held time, to 11:15.
    const claims = await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id);
    expect(claims.flatMap((c) => Object.values(c.entries))).toContainEqual({
      start: utc(DAY, '10:00'),
      end: utc(DAY, '11:15'),
    });

    const sameProvider = await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '11:10') });
    expect(sameProvider.status).toBe(409);
    expect(sameProvider.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(sameProvider.body.error.details).toContainEqual(
      expect.objectContaining({ reason: 'overlap', appointment_id: first.id }),
    );
    const other = scene.providers[1].id;
    const sameRoom = await book(scene, {
      service_id: laser.id,
      provider_id: other,
      room_id: scene.room.id,
      scheduled_at: nyTime(DAY, '11:10'),
    });
    expect(sameRoom.body.error?.code).toBe('ROOM_UNAVAILABLE');
    const otherProvider = await book(scene, {
      service_id: laser.id,
      provider_id: other,
      scheduled_at: nyTime(DAY, '11:10'),
    });
    expect(otherProvider.status, JSON.stringify(otherProvider.body)).toBe(201);
    // Right after the cleanup: free.
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '11:15') })).status).toBe(201);
  });

  it('a buffer may reach before opening and after closing; the client time may not', async () => {
    const scene = await makeScene();
    const prep = await makeService(scene.practice, {
      provider_ids: [scene.provider.id],
      duration_minutes: 60,
      buffer_before_minutes: 30,
      buffer_after_minutes: 30,
    });
    expect((await book(scene, { service_id: prep.id, scheduled_at: nyTime(DAY, '09:00') })).status).toBe(201);
    expect((await book(scene, { service_id: prep.id, scheduled_at: nyTime(DAY, '16:00') })).status).toBe(201);
    const late = await book(scene, { service_id: prep.id, scheduled_at: nyTime(DAY, '16:30') });
    expect(late.body.error.details[0].reason).toBe('outside_working_hours');
  });

  it('slots and the availability check give the candidate the service buffers only with service_id; the search agrees', async () => {
    const { scene, laser } = await cleanupScene();
    // A booking without buffers 12:00-13:00; the laser's 15 minutes after must end by 12:00.
    await booked(scene, { scheduled_at: nyTime(DAY, '12:00') });
    const plain = await slotStarts(scene, { duration_minutes: '60' });
    const buffered = await slotStarts(scene, { service_id: laser.id });
    expect(plain).toContain(utc(DAY, '11:00'));
    expect(buffered).not.toContain(utc(DAY, '11:00'));
    expect(buffered).toContain(utc(DAY, '10:45'));
    expect(buffered).toContain(utc(DAY, '13:00'));

    const check = async (query: Record<string, string>) =>
      (
        await call(
          'GET',
          `/v1/providers/${scene.provider.id}/availability?${new URLSearchParams({
            start: nyTime(DAY, '11:00'),
            end: nyTime(DAY, '12:00'),
            ...query,
          })}`,
          { token: scene.practice.adminToken },
        )
      ).body;
    expect((await check({})).data.isAvailable).toBe(true);
    const withService = await check({ service_id: laser.id });
    expect(withService.data.isAvailable).toBe(false);
    expect(withService.data.conflicts[0]).toMatchObject({ type: 'provider_booked', end: utc(DAY, '13:00') });
    expect((await check({ service_id: scene.client.id })).error?.code).toBe('SERVICE_NOT_FOUND');

    const search = await call(
      'GET',
      `/v1/availability?${new URLSearchParams({ service_id: laser.id, from: DAY, to: DAY })}`,
      { token: scene.practice.adminToken },
    );
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    const searched = (search.body.data as { slots: { slot_start: string }[] }[]).flatMap((e) =>
      e.slots.map((s) => s.slot_start),
    );
    expect(searched).toEqual(buffered);
  });

  it("a change to the service's buffers moves nothing booked; a move keeps the appointment's own", async () => {
    const { scene, laser } = await cleanupScene();
    const first = await booked(scene, { service_id: laser.id });
    const patched = await call('PATCH', `/v1/services/${laser.id}`, {
      token: scene.practice.adminToken,
      body: { buffer_after_minutes: 0 },
    });
    expect(patched.body.data.buffer_after_minutes).toBe(0);
    // Back to back is now fine for new bookings of each other, but the first still holds to 11:15.
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '11:00') })).status).toBe(409);
    const moved = await call('PATCH', `/v1/appointments/${first.id}`, {
      token: scene.practice.adminToken,
      body: { scheduled_at: nyTime(DAY, '13:00') },
    });
    expect(moved.body.data).toMatchObject({ buffer_after_minutes: 15, end_at: utc(DAY, '14:00') });
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '14:00') })).status).toBe(409);
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '14:15') })).status).toBe(201);
    // Without buffers, back to back still works.
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '11:00') })).status).toBe(201);
    expect((await book(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, '12:00') })).status).toBe(201);
  });

  it('parallel bookings whose client times do not overlap but held times do: exactly one wins', async () => {
    const scene = await makeScene();
    // 15 minutes of client time with an hour either side: 10:00..11:15 all hold 10:15-11:15.
    const wide = await makeService(scene.practice, {
      provider_ids: [scene.provider.id],
      duration_minutes: 15,
      buffer_before_minutes: 60,
      buffer_after_minutes: 60,
    });
    const starts = ['10:00', '10:15', '10:30', '10:45', '11:00', '11:15'];
    const responses = await Promise.all(
      starts.map((start) => book(scene, { service_id: wide.id, scheduled_at: nyTime(DAY, start) })),
    );
    const statuses = responses.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.body.error.code}`));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201)).toEqual(Array(starts.length - 1).fill('409 PROVIDER_UNAVAILABLE'));
  });

  it("public availability and public bookings use the service's buffers", async () => {
    const { scene, laser } = await cleanupScene();
    await enableOnlineBooking(scene.practice.medspaId);
    await booked(scene, { scheduled_at: nyTime(DAY, '12:00') });
    const now = new Date();
    const [entry] = await publicAvailability(
      scene.practice.medspaId,
      { service_id: laser.id, from: DAY, to: DAY },
      now,
    );
    const starts = entry!.slots.map((s) => s.slot_start);
    expect(starts).toContain(utc(DAY, '10:45'));
    expect(starts).not.toContain(utc(DAY, '11:00'));
    const book = (hhmm: string) =>
      bookOnline(
        scene.practice.medspaId,
        onlineBooking(scene, { service_id: laser.id, scheduled_at: nyTime(DAY, hhmm) }),
        now,
      );
    expect(await outcome(book('11:00'))).toBe('SLOT_UNAVAILABLE');
    expect(await outcome(book('10:45'))).toBe('ok');
  });
});
