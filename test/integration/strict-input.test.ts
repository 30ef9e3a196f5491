import { beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../infra/local/router';
import { call } from '../fixtures/api';
import { booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
});

const details = (response: { status: number; body: any }) => {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.error.code).toBe('VALIDATION_ERROR');
  return response.body.error.details as { path: string; message: string }[];
};

describe('strict input (contract 1)', () => {
  it('an unknown query parameter is 400 naming it, never a silently wider list', async () => {
    const response = await call('GET', `/v1/appointments?from=${BOOKING_DAY}&to=${BOOKING_DAY}&provider=typo`, {
      token: scene.practice.adminToken,
    });
    expect(details(response)).toEqual([{ path: 'provider', message: 'unknown parameter' }]);
    for (const url of [
      '/v1/clients?limt=5',
      '/v1/products?lowstock=true',
      `/v1/providers/${scene.provider.id}/slots?date=${BOOKING_DAY}&duration=60`,
    ]) {
      const problems = details(await call('GET', url, { token: scene.practice.adminToken }));
      expect(
        problems.some((p) => p.message === 'unknown parameter'),
        url,
      ).toBe(true);
    }
  });

  it("an operation that takes no query parameter refuses one too; the site's files keep their cache-busting ones", async () => {
    const token = scene.practice.adminToken;
    for (const url of [
      '/v1/practice?verbose=1',
      `/v1/clients/${scene.client.id}?expand=history`,
      '/v1/openapi.json?x=1',
    ]) {
      const problems = details(await call('GET', url, { token }));
      expect(
        problems.map((p) => p.message),
        url,
      ).toContain('unknown parameter');
    }
    const key = (
      await call('POST', '/v1/publishable-keys', {
        token,
        body: { name: 'Site', allowed_origins: ['https://spa.example'] },
      })
    ).body.data.key;
    expect((await call('PATCH', '/v1/practice', { token, body: { online_booking: { enabled: true } } })).status).toBe(
      200,
    );
    expect(
      details(await call('GET', '/v1/public/services?category=skin', { headers: { 'x-publishable-key': key } })),
    ).toEqual([{ path: 'category', message: 'unknown parameter' }]);
    expect((await call('GET', '/v1/public/services', { headers: { 'x-publishable-key': key } })).status).toBe(200);
    expect((await dispatch({ method: 'GET', url: '/docs/swagger-ui.css?v=1', headers: {} })).status).toBe(200);
  });

  it('an unknown body field is 400 at its own path, and nothing changes', async () => {
    const created = await booked(scene);
    const response = await call('PATCH', `/v1/appointments/${created.id}`, {
      token: scene.practice.adminToken,
      body: { notes: 'x', note: 'typo' },
    });
    expect(details(response)).toEqual([{ path: 'note', message: 'unknown field' }]);
    const nested = await call('PATCH', `/v1/clients/${scene.client.id}`, {
      token: scene.practice.adminToken,
      body: { address: { city: 'Austin', zip: '78701' } },
    });
    expect(details(nested)).toEqual([{ path: 'address.zip', message: 'unknown field' }]);
    const after = await call('GET', `/v1/appointments/${created.id}`, { token: scene.practice.adminToken });
    expect(after.body.data.version).toBe(created.version);
    expect(after.body.data.notes).toBe(created.notes);
  });

  it("a missing field's message names the field", async () => {
    const response = await call('POST', '/v1/appointments', {
      token: scene.practice.adminToken,
      body: { client_id: scene.client.id, service_id: scene.service.id, scheduled_at: nyTime(BOOKING_DAY, '10:00') },
    });
    expect(details(response)).toEqual([{ path: 'provider_id', message: 'provider_id is required' }]);
  });
});
