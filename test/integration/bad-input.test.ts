import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeRoom } from '../fixtures/builders';
import { addDays, daysFromNow, firstOfMonth, futureWeekday, lastOfMonth, monthOf } from '../fixtures/dates';
import { book, booked, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';

/** Inputs found by a conformance review that once answered 500: each must be a 4xx now. */
describe('bad input is a 4xx, never a 500', () => {
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('If-Match beyond any possible version is a version conflict', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const room = await makeRoom(scene.practice);
    for (const version of ['"9007199254740993"', '12345678901234567890', `"${'9'.repeat(400)}"`]) {
      expect(
        (await call('PATCH', `/v1/rooms/${room.id}`, { token, headers: { 'if-match': version }, body: { name: 'x' } }))
          .status,
      ).toBe(409);
      expect((await call('DELETE', `/v1/rooms/${room.id}`, { token, headers: { 'if-match': version } })).status).toBe(
        409,
      );
      expect(
        (await call('PATCH', '/v1/practice', { token, headers: { 'if-match': version }, body: { name: 'x' } })).status,
      ).toBe(409);
    }
  });

  it('numbers DynamoDB cannot store, years far out, reversed ranges', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = await booked(scene);
    for (const status of ['confirmed', 'checked_in'])
      await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status } });
    for (const quantity of [1e300, 1e-300]) {
      const response = await call('PUT', `/v1/appointments/${a.id}/treatment-record`, {
        token,
        body: { products_used: [{ name: 'x', quantity }] },
      });
      expect(response.status).toBe(400);
    }
    for (const url of [
      '/v1/appointments?from=9999-12-01&to=9999-12-31',
      '/v1/payments?from=9999-12-01&to=9999-12-31',
      `/v1/providers/${scene.provider.id}/slots?date=0000-01-01&duration_minutes=60`,
      `/v1/audit-log?from=${addDays(BOOKING_DAY, 31)}T00:00:00Z&to=${BOOKING_DAY}T00:00:00Z`,
      // Decades ahead: after the default `to` (now), however far in the future the suite runs.
      `/v1/audit-log?from=${daysFromNow(70 * 365)}`,
    ]) {
      expect({ url, status: (await call('GET', url, { token })).status }).toEqual({ url, status: 400 });
    }
    expect((await book(scene, { scheduled_at: '9999-12-31T23:00:00Z' })).status).toBe(400);
  });

  it('an availability window of 72 hours that does not start on the hour', async () => {
    const scene = await makeScene();
    const start = futureWeekday('sat', 3);
    const url = `/v1/providers/${scene.provider.id}/availability?start=${start}T00:30:00Z&end=${addDays(start, 3)}T00:30:00Z`;
    const response = await call('GET', url, { token: scene.practice.adminToken });
    expect(response.status).toBe(200);
    expect(response.body.data.isAvailable).toBe(false);
  });

  it('forged cursors with missing or extra key attributes', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const mid = scene.practice.medspaId;
    const [from, to, month] = [firstOfMonth(BOOKING_DAY), lastOfMonth(BOOKING_DAY), monthOf(BOOKING_DAY)];
    const cases = [
      `/v1/clients?cursor=${cursorOf({ pk: `P#${mid}#CLIENT` })}`,
      `/v1/clients?cursor=${cursorOf({ pk: `P#${mid}#CLIENT`, sk: 'a', gsi1pk: 'x' })}`,
      `/v1/appointments?from=${from}&to=${to}&cursor=${cursorOf({ month, key: { gsi1pk: `P#${mid}#APPTS#${month}` } })}`,
      `/v1/payments?from=${from}&to=${to}&cursor=${cursorOf({ month, key: { gsi1pk: `P#${mid}#PAYMENTS#${month}` } })}`,
    ];
    for (const url of cases) {
      const response = await call('GET', url, { token });
      expect({ url, status: response.status, code: response.body.error?.code }).toEqual({
        url,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
    }
  });
});

describe('appointment detail shapes its nested records', () => {
  it('no storage fields, also for a provider and room deleted since', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = await booked(scene, { room_id: scene.room.id, scheduled_at: nyTime(BOOKING_DAY, '12:00') });
    await call('POST', `/v1/appointments/${a.id}/cancel`, { token });
    await call('DELETE', `/v1/providers/${scene.provider.id}`, { token });
    await call('DELETE', `/v1/rooms/${scene.room.id}`, { token });
    const detail = (await call('GET', `/v1/appointments/${a.id}`, { token })).body.data;
    for (const nested of [detail.provider, detail.room, detail.service, detail.client]) {
      expect(nested).not.toHaveProperty('deleted_at');
      expect(nested).not.toHaveProperty('pk');
      expect(nested).not.toHaveProperty('no_show_count');
    }
    expect(detail.provider).toMatchObject({ id: scene.provider.id, full_name: scene.provider.full_name });
    expect(detail.room).toMatchObject({ id: scene.room.id });
  });
});
