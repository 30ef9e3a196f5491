import { describe, expect, it } from 'vitest';
import { bookOnline } from '../../lib/use-cases/public-booking';
import { getClient } from '../../lib/use-cases/clients';
import { call } from '../fixtures/api';
import { makeClient, makeProvider, makeService } from '../fixtures/builders';
import { addDays, at, NY } from '../fixtures/dates';
import { makeOnlineScene, onlineBooking, outcome } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime } from '../fixtures/scheduling';

const NOW = new Date();

describe('POST /v1/public/bookings (use case)', { timeout: 120_000 }, () => {
  it('20 concurrent bookings of one time: exactly one books, the rest are SLOT_UNAVAILABLE', async () => {
    const scene = await makeOnlineScene();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => outcome(bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW))),
    );
    const tally: Record<string, number> = {};
    for (const result of results) tally[result] = (tally[result] ?? 0) + 1;
    expect(tally).toEqual({ ok: 1, SLOT_UNAVAILABLE: 19 });
    const list = await call('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}`, {
      token: scene.practice.adminToken,
    });
    expect(list.body.data).toHaveLength(1);
    const detail = await call('GET', `/v1/appointments/${list.body.data[0].id}`, { token: scene.practice.adminToken });
    expect(detail.body.data.source).toBe('online');
  });

  it('without provider_id takes a free certified provider; a taken time says nothing of who holds it', async () => {
    const scene = await makeOnlineScene({ providers: 2 });
    const first = await bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW);
    const second = await bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW);
    expect(new Set([first.provider.id, second.provider.id])).toEqual(new Set(scene.providers.map((p) => p.id)));
    expect(Object.keys(second.provider).sort()).toEqual(['display_name', 'id']);
    const refusal = await bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW).catch((error) => error);
    expect(refusal.code).toBe('SLOT_UNAVAILABLE');
    expect(refusal.details).toBeUndefined();
    expect(refusal.message).not.toContain(first.appointment_id);
  });

  it('answers a new and an existing email identically apart from ids, and never changes the existing client', async () => {
    const known = await makeOnlineScene();
    const fresh = await makeOnlineScene();
    const existing = await makeClient(known.practice, {
      email: 'Olivia.Hart@Example.com',
      first_name: 'Olivia',
      last_name: 'Hart',
      phone: '+1 212 555 0142',
    });
    const before = await getClient(known.practice.medspaId, existing.id, NOW);
    const client = {
      first_name: 'Someone',
      last_name: 'Else',
      email: 'olivia.hart@example.COM',
      phone: '+1 999 555 0000',
    };
    const [a, b] = await Promise.all([
      bookOnline(known.practice.medspaId, onlineBooking(known, { client }), NOW),
      bookOnline(fresh.practice.medspaId, onlineBooking(fresh, { client }), NOW),
    ]);
    const withoutIds = (booking: typeof a) => ({
      ...booking,
      appointment_id: 'id',
      manage_token: 'token',
      service: { ...booking.service, id: 'id', name: 'name' },
      provider: { ...booking.provider, id: 'id' },
    });
    expect(withoutIds(a)).toEqual(withoutIds(b));
    expect(Object.keys(a).sort()).toEqual([
      'appointment_id',
      'duration_minutes',
      'manage_token',
      'provider',
      'scheduled_at',
      'service',
      'status',
    ]);
    expect(await getClient(known.practice.medspaId, existing.id, NOW)).toEqual(before);
    const appointment = await call('GET', `/v1/appointments/${a.appointment_id}`, { token: known.practice.adminToken });
    expect(appointment.body.data.client.id).toBe(existing.id);
    // The new email became a client of the other practice, found by its email.
    const created = await call('GET', `/v1/clients?q=${encodeURIComponent('olivia.hart@example.com')}`, {
      token: fresh.practice.adminToken,
    });
    expect(created.body.data).toHaveLength(1);
    expect(created.body.data[0]).toMatchObject({ first_name: 'Someone', last_name: 'Else', phone: '+1 999 555 0000' });
  });

  it('a refused booking creates no client', async () => {
    const scene = await makeOnlineScene();
    await bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW);
    const email = `refused.${Date.now()}@example.com`;
    expect(
      await outcome(
        bookOnline(
          scene.practice.medspaId,
          onlineBooking(scene, { client: { first_name: 'A', last_name: 'B', email } }),
          NOW,
        ),
      ),
    ).toBe('SLOT_UNAVAILABLE');
    const search = await call('GET', `/v1/clients?q=${encodeURIComponent(email)}`, {
      token: scene.practice.adminToken,
    });
    expect(search.body.data).toHaveLength(0);
  });

  it('the booking window: now + min_notice is the earliest start, today + horizon_days the last date', async () => {
    const scene = await makeOnlineScene({ settings: { min_notice_minutes: 120, horizon_days: 10 } });
    const now = new Date(at(BOOKING_DAY, '08:00', NY));
    const medspaId = scene.practice.medspaId;
    const early = await bookOnline(
      medspaId,
      onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '09:45') }),
      now,
    ).catch((error) => error);
    expect(early.code).toBe('VALIDATION_ERROR');
    expect(early.details[0].path).toBe('scheduled_at');
    expect(
      await outcome(bookOnline(medspaId, onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '10:00') }), now)),
    ).toBe('ok');
    const last = addDays(BOOKING_DAY, 10);
    expect(
      await outcome(bookOnline(medspaId, onlineBooking(scene, { scheduled_at: nyTime(last, '16:00') }), now)),
    ).toBe('ok');
    expect(
      await outcome(
        bookOnline(medspaId, onlineBooking(scene, { scheduled_at: nyTime(addDays(last, 1), '09:00') }), now),
      ),
    ).toBe('VALIDATION_ERROR');
  });

  it('over max_active_bookings_per_client: 409 BOOKING_LIMIT_REACHED (by email, any case)', async () => {
    const scene = await makeOnlineScene({ settings: { max_active_bookings_per_client: 2 } });
    const email = `limit.${Date.now()}@example.com`;
    const as = (hhmm: string, address = email) =>
      onlineBooking(scene, {
        scheduled_at: nyTime(BOOKING_DAY, hhmm),
        client: { first_name: 'L', last_name: 'M', email: address },
      });
    await bookOnline(scene.practice.medspaId, as('09:00'), NOW);
    await bookOnline(scene.practice.medspaId, as('11:00', email.toUpperCase()), NOW);
    expect(await outcome(bookOnline(scene.practice.medspaId, as('13:00'), NOW))).toBe('BOOKING_LIMIT_REACHED');
  });

  it('unknown or inactive service, a provider not offered for it: 404', async () => {
    const scene = await makeOnlineScene();
    const other = await makeProvider(scene.practice);
    const inactive = await makeService(scene.practice, { provider_ids: [scene.provider.id], active: false });
    const medspaId = scene.practice.medspaId;
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene, { service_id: inactive.id }), NOW))).toBe(
      'SERVICE_NOT_FOUND',
    );
    expect(
      await outcome(
        bookOnline(medspaId, onlineBooking(scene, { service_id: '00000000-0000-4000-8000-000000000000' }), NOW),
      ),
    ).toBe('SERVICE_NOT_FOUND');
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene, { provider_id: other.id }), NOW))).toBe(
      'PROVIDER_NOT_FOUND',
    );
  });

  it('a practice that has not opted in: ONLINE_BOOKING_DISABLED', async () => {
    const scene = await makeOnlineScene({ settings: { enabled: false } });
    expect(await outcome(bookOnline(scene.practice.medspaId, onlineBooking(scene), NOW))).toBe(
      'ONLINE_BOOKING_DISABLED',
    );
  });
});
