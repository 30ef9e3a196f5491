import { describe, expect, it } from 'vitest';
import {
  bookOnline,
  getOnlineBooking,
  rescheduleOnlineBooking,
  cancelOnlineBooking,
} from '../../lib/use-cases/public-booking';
import { call } from '../fixtures/api';
import { makeOnlineScene, onlineBooking, outcome } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime } from '../fixtures/scheduling';

const NOW = new Date();
/** A practice-local time on BOOKING_DAY plus seconds and milliseconds. */
const nyInstant = (hhmm: string, extraMs: number) =>
  new Date(Date.parse(nyTime(BOOKING_DAY, hhmm)) + extraMs).toISOString();

describe('public bookings only at offered slot starts (API reference, online booking)', () => {
  it('12:07, :31 seconds or .123 ms past a start: 409 SLOT_UNAVAILABLE, for a booking and a reschedule; the offered 12:15 books', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    for (const scheduledAt of [nyTime(BOOKING_DAY, '12:07'), nyInstant('12:00', 31_000), nyInstant('12:00', 123)]) {
      expect(
        await outcome(bookOnline(medspaId, onlineBooking(scene, { scheduled_at: scheduledAt }), NOW)),
        scheduledAt,
      ).toBe('SLOT_UNAVAILABLE');
      // Also naming the provider.
      expect(
        await outcome(
          bookOnline(
            medspaId,
            onlineBooking(scene, { scheduled_at: scheduledAt, provider_id: scene.provider.id }),
            NOW,
          ),
        ),
      ).toBe('SLOT_UNAVAILABLE');
    }
    const offered = await bookOnline(
      medspaId,
      onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '12:15') }),
      NOW,
    );
    expect(offered.scheduled_at).toBe(new Date(nyTime(BOOKING_DAY, '12:15')).toISOString());
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, offered.appointment_id, offered.manage_token, {
          now: NOW,
          scheduledAt: nyTime(BOOKING_DAY, '14:07'),
        }),
      ),
    ).toBe('SLOT_UNAVAILABLE');
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, offered.appointment_id, offered.manage_token, {
          now: NOW,
          scheduledAt: nyTime(BOOKING_DAY, '14:45'),
        }),
      ),
    ).toBe('ok');
  });

  it("the slot starts are the public availability's: every offered start books, the minute after it does not", async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const key = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Site', allowed_origins: ['https://spa.example'] },
    });
    const days = await call(
      'GET',
      `/v1/public/availability?service_id=${scene.service.id}&from=${BOOKING_DAY}&to=${BOOKING_DAY}`,
      { headers: { 'x-publishable-key': key.body.data.key } },
    );
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    const starts: string[] = days.body.data[0].slots.map((slot: { slot_start: string }) => slot.slot_start);
    expect(starts.length).toBeGreaterThan(4);
    const [first, , , , fifth] = starts;
    expect(
      await outcome(
        bookOnline(
          medspaId,
          onlineBooking(scene, { scheduled_at: new Date(Date.parse(first!) + 60_000).toISOString() }),
          NOW,
        ),
      ),
    ).toBe('SLOT_UNAVAILABLE');
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene, { scheduled_at: fifth! }), NOW))).toBe('ok');
  });
});

describe('a reschedule retires the old manage link', () => {
  it('the old token is 404 for get, cancel and reschedule; the new one works; staff see no trace of the link', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const booked = await bookOnline(medspaId, onlineBooking(scene), NOW);
    const moved = await rescheduleOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, {
      now: NOW,
      scheduledAt: nyTime(BOOKING_DAY, '15:00'),
    });
    expect(moved.manage_token).not.toBe(booked.manage_token);
    expect(await outcome(getOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, NOW))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    expect(await outcome(cancelOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, { now: NOW }))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    expect(
      await outcome(
        rescheduleOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, {
          now: NOW,
          scheduledAt: nyTime(BOOKING_DAY, '16:00'),
        }),
      ),
    ).toBe('APPOINTMENT_NOT_FOUND');
    expect(await getOnlineBooking(medspaId, booked.appointment_id, moved.manage_token, NOW)).toMatchObject({
      scheduled_at: new Date(nyTime(BOOKING_DAY, '15:00')).toISOString(),
    });
    // A second reschedule retires the second link too.
    const again = await rescheduleOnlineBooking(medspaId, booked.appointment_id, moved.manage_token, {
      now: NOW,
      scheduledAt: nyTime(BOOKING_DAY, '16:00'),
    });
    expect(await outcome(getOnlineBooking(medspaId, booked.appointment_id, moved.manage_token, NOW))).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    expect(await outcome(cancelOnlineBooking(medspaId, booked.appointment_id, again.manage_token, { now: NOW }))).toBe(
      'ok',
    );
    const staff = await call('GET', `/v1/appointments/${booked.appointment_id}`, { token: scene.practice.adminToken });
    expect(staff.status).toBe(200);
    expect(staff.body.data).not.toHaveProperty('manage_generation');
  });

  it('two reschedules racing with one link: one moves it, the other is 404 (its link was retired under it)', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const booked = await bookOnline(medspaId, onlineBooking(scene), NOW);
    const outcomes = await Promise.all(
      ['13:00', '14:00'].map((hhmm) =>
        outcome(
          rescheduleOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, {
            now: NOW,
            scheduledAt: nyTime(BOOKING_DAY, hhmm),
          }),
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(['APPOINTMENT_NOT_FOUND', 'ok']);
  });
});
