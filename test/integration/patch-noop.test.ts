import { resetConfig } from '../../lib/config';
import type { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { callableRoutes, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { call } from '../fixtures/api';
import { makeClient, makeProduct } from '../fixtures/builders';
import { makePlan } from '../fixtures/plans';
import { makeFormTemplate } from '../fixtures/forms';
import { booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * A PATCH that changes nothing (an empty body, or every field at its current value) is no change:
 * 200 with the resource as stored, the same version, ETag and updated_at. Every PATCH route of the
 * route table is listed here; a new one fails the first test until it gets a row.
 */
const PATCH_ROUTES = callableRoutes(routes).filter(([, route]) => route.method === 'PATCH') as [string, RouteDef][];

/** Where each PATCH route's resource lives: the URL to PATCH and GET. */
const TARGETS: Record<string, (scene: Scene) => Promise<string>> = {
  updatePractice: async () => '/v1/practice',
  updateProvider: async (scene) => `/v1/providers/${scene.provider.id}`,
  updateRoom: async (scene) => `/v1/rooms/${scene.room.id}`,
  updateEquipment: async (scene) => `/v1/equipment/${scene.equipment.id}`,
  updateService: async (scene) => `/v1/services/${scene.service.id}`,
  updateClient: async (scene) =>
    `/v1/clients/${(await makeClient(scene.practice, { tags: ['vip', 'laser'], notes: 'prefers mornings', date_of_birth: '1990-02-03', address: { line1: '1 Main St', city: 'Albany' }, membership_status: 'active', membership_tier: 'gold' })).id}`,
  updateProduct: async (scene) =>
    `/v1/products/${(await makeProduct(scene.practice, { quantity_on_hand: 7, low_stock_threshold: 2 })).id}`,
  updateAppointment: async (scene) =>
    `/v1/appointments/${(await booked(scene, { room_id: scene.room.id, equipment_id: scene.equipment.id, notes: 'n', internal_notes: 'i' })).id}`,
  updateWebhook: async (scene) => {
    process.env.ALLOW_LOCAL_WEBHOOKS = 'true';
    resetConfig();
    const created = await call('POST', '/v1/webhooks', {
      token: scene.practice.adminToken,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['client.created'], description: 'crm' },
    });
    return `/v1/webhooks/${created.body.data.id}`;
  },
  updatePublishableKey: async (scene) => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Site', allowed_origins: ['https://spa.example'] },
    });
    return `/v1/publishable-keys/${created.body.data.id}`;
  },
  updatePlan: async (scene) =>
    `/v1/plans/${(await makePlan(scene.practice, { kind: 'package', name: 'Six lasers', price_cents: 90_000, description: 'd', benefits: [{ service_id: scene.service.id, quantity: 6 }] })).id}`,
  updateFormTemplate: async (scene) =>
    `/v1/form-templates/${
      (
        await makeFormTemplate(scene.practice, {
          valid_days: 30,
          fields: [
            { key: 'skin', label: 'Skin', type: 'select', required: true, options: ['I', 'II'] },
            { key: 'ok', label: 'OK', type: 'boolean' },
          ],
        })
      ).id
    }`,
  updateAppointmentStatus: async (scene) =>
    `/v1/appointments/${(await booked(scene, { scheduled_at: nyTime(BOOKING_DAY, '14:00') })).id}/status`,
};

/** Fields a PATCH refuses whatever their value: they change otherwise (stock adjustments) or never (lots). */
const NEVER_PATCHED = new Set(['quantity_on_hand', 'tracks_lots']);

/** The body fields of a route's schema, each at the resource's current value (output shapes are valid input here). */
function sameValues(route: RouteDef, resource: Record<string, unknown>): Record<string, unknown> {
  const shape = (route.body as z.ZodObject).shape as Record<string, z.ZodType>;
  const body: Record<string, unknown> = {};
  for (const name of Object.keys(shape)) {
    if (!(name in resource) || NEVER_PATCHED.has(name)) continue;
    body[name] = resource[name];
  }
  // Time off answers `reason: null` when none was given; the input takes it absent.
  if (Array.isArray(body.time_off))
    body.time_off = (body.time_off as Record<string, unknown>[]).map(({ reason, ...entry }) =>
      reason === null ? entry : { ...entry, reason },
    );
  return body;
}

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
  const token = scene.practice.adminToken;
  // Give the provider time off, so the PATCH of equal values carries a list of objects too.
  const start = new Date(Date.now() + 90 * 86_400_000).toISOString();
  const end = new Date(Date.now() + 91 * 86_400_000).toISOString();
  expect(
    (
      await call('PATCH', `/v1/providers/${scene.provider.id}`, {
        token,
        body: {
          time_off: [
            { start, end, reason: 'holiday' },
            { start: end, end: new Date(Date.now() + 92 * 86_400_000).toISOString() },
          ],
        },
      })
    ).status,
  ).toBe(200);
});

describe('a PATCH that changes nothing is no change (same version, ETag, updated_at)', () => {
  it('covers every PATCH route of the route table', () => {
    expect(PATCH_ROUTES.map(([operation]) => operation).filter((operation) => !(operation in TARGETS))).toEqual([]);
  });

  describe.each(PATCH_ROUTES.filter(([operation]) => operation !== 'updateAppointmentStatus'))(
    '%s',
    (operation, route) => {
      it('{} and the current values answer the stored resource unchanged (also under a matching If-Match; a stale one is 409)', async () => {
        const token = scene.practice.adminToken;
        const url = await TARGETS[operation](scene);
        const before = await call('GET', url, { token });
        expect(before.status).toBe(200);
        const stored = before.body.data;

        for (const body of [{}, sameValues(route, stored)]) {
          const patched = await call('PATCH', url, { token, body });
          expect(patched.status, `${operation} ${JSON.stringify(body)}: ${JSON.stringify(patched.body)}`).toBe(200);
          expect(patched.headers.etag).toBe(before.headers.etag);
          expect(patched.body.data.version).toBe(stored.version);
          expect(patched.body.data.updated_at).toBe(stored.updated_at);
          // With a matching If-Match too; a stale one is still a conflict, even for no change.
          expect((await call('PATCH', url, { token, body, headers: { 'if-match': before.headers.etag } })).status).toBe(
            200,
          );
          expect(
            (await call('PATCH', url, { token, body, headers: { 'if-match': `"${stored.version + 5}"` } })).body.error
              ?.code,
          ).toBe('VERSION_CONFLICT');
        }
        const after = await call('GET', url, { token });
        expect(after.body.data).toEqual(stored);
        expect(after.headers.etag).toBe(before.headers.etag);
      });
    },
  );

  it('updateAppointmentStatus: {} is 400, the current status 409, and neither changes the appointment', async () => {
    const token = scene.practice.adminToken;
    const url = await TARGETS.updateAppointmentStatus(scene);
    const appointmentUrl = url.replace(/\/status$/, '');
    const before = (await call('GET', appointmentUrl, { token })).body.data;
    expect((await call('PATCH', url, { token, body: {} })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await call('PATCH', url, { token, body: { status: before.status } })).body.error.code).toBe(
      'INVALID_STATUS_TRANSITION',
    );
    expect((await call('GET', appointmentUrl, { token })).body.data).toEqual(before);
  });

  it('a PATCH with one real change among equal values changes (version + 1)', async () => {
    const token = scene.practice.adminToken;
    const url = `/v1/rooms/${scene.room.id}`;
    const before = (await call('GET', url, { token })).body.data;
    const patched = await call('PATCH', url, {
      token,
      body: { name: before.name, description: 'now with a window', active: before.active },
    });
    expect(patched.body.data).toMatchObject({ version: before.version + 1, description: 'now with a window' });
    expect(patched.headers.etag).toBe(`"${before.version + 1}"`);
  });
});
