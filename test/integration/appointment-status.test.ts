import { describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, canTransition, type AppointmentStatus } from '../../lib/domain/status';
import { call } from '../fixtures/api';
import { addDays, futureWeekday } from '../fixtures/dates';
import { book, booked, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';

/** The allowed walk from `scheduled` to each status. */
const PATH_TO: Record<AppointmentStatus, AppointmentStatus[]> = {
  scheduled: [],
  confirmed: ['confirmed'],
  checked_in: ['confirmed', 'checked_in'],
  in_progress: ['confirmed', 'checked_in', 'in_progress'],
  completed: ['confirmed', 'checked_in', 'in_progress', 'completed'],
  cancelled: ['cancelled'],
  no_show: ['confirmed', 'checked_in', 'no_show'],
};

describe('status machine over the API: all 49 pairs', () => {
  it('allows exactly the contract moves and refuses every other pair with nothing changed', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const firstDay = futureWeekday('mon', 3);
    let slot = 0;
    const outcomes: string[] = [];
    for (const from of APPOINTMENT_STATUSES) {
      for (const to of APPOINTMENT_STATUSES) {
        // Each pair gets its own hour on its own day, so bookings never collide.
        slot += 1;
        const date = addDays(firstDay, Math.floor(slot / 8));
        const hour = String(9 + (slot % 8)).padStart(2, '0');
        const a = await booked(scene, { scheduled_at: nyTime(date, `${hour}:00`) });
        for (const step of PATH_TO[from]) {
          const moved = await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status: step } });
          expect(moved.status).toBe(200);
        }
        const before = (await call('GET', `/v1/appointments/${a.id}`, { token })).body.data;
        const response = await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status: to } });
        const after = (await call('GET', `/v1/appointments/${a.id}`, { token })).body.data;
        if (canTransition(from, to)) {
          expect(response.status).toBe(200);
          expect(after).toMatchObject({ status: to, version: before.version + 1 });
        } else {
          expect(response.status).toBe(409);
          expect(response.body.error.code).toBe('INVALID_STATUS_TRANSITION');
          expect(after).toEqual(before);
        }
        outcomes.push(`${from}->${to}:${response.status}`);
      }
    }
    expect(outcomes).toHaveLength(49);
    expect(outcomes.filter((o) => o.endsWith(':200')).sort()).toEqual(
      [
        'scheduled->confirmed',
        'confirmed->checked_in',
        'checked_in->in_progress',
        'in_progress->completed',
        'scheduled->cancelled',
        'confirmed->cancelled',
        'in_progress->cancelled',
        'checked_in->no_show',
      ]
        .map((pair) => `${pair}:200`)
        .sort(),
    );
  }, 120_000);

  it('cancel and no-show endpoints follow the same machine', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = await booked(scene);
    expect((await call('POST', `/v1/appointments/${a.id}/no-show`, { token })).body.error.code).toBe(
      'INVALID_STATUS_TRANSITION',
    );
    await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status: 'confirmed' } });
    await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status: 'checked_in' } });
    expect((await call('POST', `/v1/appointments/${a.id}/cancel`, { token })).body.error.code).toBe(
      'INVALID_STATUS_TRANSITION',
    );
    expect((await call('POST', `/v1/appointments/${a.id}/no-show`, { token })).body.data.status).toBe('no_show');
  });

  it('a provider-role token may move status but not book', async () => {
    const scene = await makeScene();
    const providerToken = await scene.practice.tokenForRole('provider');
    const a = await booked(scene);
    expect(
      (await call('PATCH', `/v1/appointments/${a.id}/status`, { token: providerToken, body: { status: 'confirmed' } }))
        .status,
    ).toBe(200);
    const denied = await book(
      scene,
      { scheduled_at: nyTime(BOOKING_DAY, '14:00') },
      { ...scene.practice, adminToken: providerToken },
    );
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
  });
});
