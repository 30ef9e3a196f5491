import { describe, expect, it } from 'vitest';
import { issueManageToken } from '../../lib/crypto/manage-token';
import { getPractice } from '../../lib/db/practices';
import { publicAvailability, publicServices } from '../../lib/use-cases/public-catalog';
import {
  bookOnline,
  cancelOnlineBooking,
  getOnlineBooking,
  rescheduleOnlineBooking,
} from '../../lib/use-cases/public-booking';
import { call } from '../fixtures/api';
import { makeProvider, makeService } from '../fixtures/builders';
import { addDays, at, NY } from '../fixtures/dates';
import { makeOnlineScene, onlineBooking, outcome } from '../fixtures/online-booking';
import { book, BOOKING_DAY, nyTime } from '../fixtures/scheduling';

const NOW = new Date();

describe('manage links (use cases)', { timeout: 60_000 }, () => {
  it("opens only its own booking: another booking's, a tampered or an expired token is 404", async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const mine = await bookOnline(medspaId, onlineBooking(scene), NOW);
    const other = await bookOnline(medspaId, onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '12:00') }), NOW);
    expect(await getOnlineBooking(medspaId, mine.appointment_id, mine.manage_token, NOW)).toMatchObject({
      appointment_id: mine.appointment_id,
      status: 'scheduled',
    });
    expect(await outcome(getOnlineBooking(medspaId, mine.appointment_id, other.manage_token, NOW))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    const tampered = mine.manage_token.slice(0, -2) + (mine.manage_token.endsWith('AA') ? 'BB' : 'AA');
    expect(await outcome(getOnlineBooking(medspaId, mine.appointment_id, tampered, NOW))).toBe('APPOINTMENT_NOT_FOUND');
    expect(await outcome(getOnlineBooking(medspaId, mine.appointment_id, undefined, NOW))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    const afterEnd = new Date(Date.parse(nyTime(BOOKING_DAY, '11:01')));
    expect(await outcome(getOnlineBooking(medspaId, mine.appointment_id, mine.manage_token, afterEnd))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    // Bound to the practice too: the same appointment id under another practice is not opened.
    const elsewhere = await makeOnlineScene();
    expect(
      await outcome(getOnlineBooking(elsewhere.practice.medspaId, mine.appointment_id, mine.manage_token, NOW)),
    ).toBe('APPOINTMENT_NOT_FOUND');
    for (const token of [other.manage_token, tampered]) {
      expect(await outcome(cancelOnlineBooking(medspaId, mine.appointment_id, token, { now: NOW }))).toBe(
        'APPOINTMENT_NOT_FOUND',
      );
      expect(
        await outcome(
          rescheduleOnlineBooking(medspaId, mine.appointment_id, token, {
            now: NOW,
            scheduledAt: nyTime(BOOKING_DAY, '14:00'),
          }),
        ),
      ).toBe('APPOINTMENT_NOT_FOUND');
    }
  });

  it('cancel frees the time until the cutoff; after it, 409 CANCEL_WINDOW_CLOSED', async () => {
    const scene = await makeOnlineScene({ settings: { cancel_cutoff_minutes: 1440 } });
    const medspaId = scene.practice.medspaId;
    const booking = await bookOnline(medspaId, onlineBooking(scene), NOW);
    const dayBefore = new Date(Date.parse(nyTime(BOOKING_DAY, '10:00')) - 1440 * 60_000);
    const tooLate = new Date(dayBefore.getTime() + 60_000);
    expect(
      await outcome(cancelOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, { now: tooLate })),
    ).toBe('CANCEL_WINDOW_CLOSED');
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
          now: tooLate,
          scheduledAt: nyTime(BOOKING_DAY, '14:00'),
        }),
      ),
    ).toBe('CANCEL_WINDOW_CLOSED');
    const cancelled = await cancelOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
      now: dayBefore,
      reason: 'Travelling',
    });
    expect(cancelled.status).toBe('cancelled');
    const staff = await call('GET', `/v1/appointments/${booking.appointment_id}`, { token: scene.practice.adminToken });
    expect(staff.body.data).toMatchObject({ status: 'cancelled', cancellation_reason: 'Travelling', source: 'online' });
    // The time is free again.
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene), NOW))).toBe('ok');
  });

  it('reschedule: same provider, same rules as a booking, a new token', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const booking = await bookOnline(medspaId, onlineBooking(scene), NOW);
    expect((await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '13:00') })).status).toBe(201);
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
          now: NOW,
          scheduledAt: nyTime(BOOKING_DAY, '13:30'),
        }),
      ),
    ).toBe('SLOT_UNAVAILABLE');
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
          now: NOW,
          scheduledAt: nyTime(addDays(BOOKING_DAY, 90), '10:00'),
        }),
      ),
    ).toBe('VALIDATION_ERROR');
    const moved = await rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
      now: NOW,
      scheduledAt: nyTime(BOOKING_DAY, '15:00'),
    });
    expect(moved).toMatchObject({
      appointment_id: booking.appointment_id,
      provider: booking.provider,
      scheduled_at: new Date(nyTime(BOOKING_DAY, '15:00')).toISOString(),
    });
    expect(await getOnlineBooking(medspaId, booking.appointment_id, moved.manage_token, NOW)).toMatchObject({
      scheduled_at: moved.scheduled_at,
    });
    // The old 10:00 is free again.
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene), NOW))).toBe('ok');
  });

  it('a token issued for this booking by anyone with the key material works (deterministic binding)', async () => {
    const scene = await makeOnlineScene();
    const booking = await bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW);
    const end = new Date(Date.parse(booking.scheduled_at) + booking.duration_minutes * 60_000).toISOString();
    const token = issueManageToken({ medspa_id: scene.practice.medspaId, id: booking.appointment_id, end_at: end });
    expect(await outcome(getOnlineBooking(scene.practice.medspaId, booking.appointment_id, token, NOW))).toBe('ok');
  });
});

describe('services and availability (use cases)', { timeout: 60_000 }, () => {
  it('services: active ones with an active certified provider, public fields only', async () => {
    const scene = await makeOnlineScene();
    const idle = await makeProvider(scene.practice, { active: false });
    await makeService(scene.practice, { name: 'Nobody does it' });
    await makeService(scene.practice, { name: 'Only an inactive provider', provider_ids: [idle.id] });
    await makeService(scene.practice, { name: 'Retired', provider_ids: [scene.provider.id], active: false });
    const services = await publicServices((await getPractice(scene.practice.medspaId))!);
    expect(services).toEqual([
      {
        id: scene.service.id,
        name: scene.service.name,
        category: 'injectables',
        description: null,
        duration_minutes: 60,
        price_cents: 25000,
        deposit_required_cents: 0,
      },
    ]);
  });

  it('availability: the staff search cut to the booking window, providers by display name only', async () => {
    const scene = await makeOnlineScene({ settings: { min_notice_minutes: 120, horizon_days: 3 } });
    const now = new Date(at(BOOKING_DAY, '08:00', NY));
    const entries = await publicAvailability(
      scene.practice.medspaId,
      { service_id: scene.service.id, from: addDays(BOOKING_DAY, -2), to: addDays(BOOKING_DAY, 10) },
      now,
    );
    expect(entries.map((entry) => entry.date)).toEqual([0, 1, 2, 3].map((days) => addDays(BOOKING_DAY, days)));
    expect(entries[0].slots[0].slot_start).toBe(new Date(nyTime(BOOKING_DAY, '10:00')).toISOString());
    expect(entries[0].provider).toEqual({
      id: scene.provider.id,
      display_name: `${scene.provider.first_name} ${scene.provider.last_name[0]}.`,
    });
    const staff = await call(
      'GET',
      `/v1/availability?service_id=${scene.service.id}&from=${addDays(BOOKING_DAY, 1)}&to=${addDays(BOOKING_DAY, 1)}`,
      { token: scene.practice.adminToken },
    );
    expect(entries[1].slots).toEqual(staff.body.data[0].slots);
    const other = await makeProvider(scene.practice);
    expect(
      await outcome(
        publicAvailability(
          scene.practice.medspaId,
          { service_id: scene.service.id, from: BOOKING_DAY, to: BOOKING_DAY, provider_id: other.id },
          now,
        ),
      ),
    ).toBe('PROVIDER_NOT_FOUND');
  });
});
