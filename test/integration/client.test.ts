import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { MedspaApiError, MedspaClient } from '../../lib/client/index';
import { addDays, daysFromToday, utc } from '../fixtures/dates';
import { BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/** Some weeks ahead (a Monday). */
const DAY = BOOKING_DAY;

describe('typed client over the real local HTTP server', () => {
  let server: Server;
  let client: MedspaClient;
  let scene: Scene;

  beforeAll(async () => {
    server = createLocalServer();
    const port = await listen(server, 0);
    scene = await makeScene();
    client = new MedspaClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clientId: scene.practice.clientId,
      clientSecret: scene.practice.clientSecret,
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('books, lists, checks availability and slots, moves status and cancels', async () => {
    const slots = await client.getAvailableSlots(scene.provider.id, DAY, 60, 60);
    expect(slots.data[0]).toEqual({ slot_start: utc(DAY, '09:00'), slot_end: utc(DAY, '10:00') });

    const created = await client.createAppointment({
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      scheduled_at: nyTime(DAY, '10:00'),
      source: 'storefront',
    });
    expect(created).toMatchObject({ success: true, data: { status: 'scheduled', source: 'storefront' } });

    const availability = await client.checkProviderAvailability(
      scene.provider.id,
      nyTime(DAY, '10:00'),
      nyTime(DAY, '11:00'),
    );
    expect(availability.data.isAvailable).toBe(false);

    const listed = await client.getAppointments({
      startDate: DAY,
      endDate: DAY,
      providerId: scene.provider.id,
      status: ['scheduled'],
    });
    expect(listed.data.map((a) => a.id)).toEqual([created.data.id]);
    expect(listed.pagination?.total).toBe(1);

    expect((await client.updateAppointmentStatus(created.data.id, 'confirmed')).data.status).toBe('confirmed');
    expect((await client.cancelAppointment(created.data.id, 'rescheduling')).data).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'rescheduling',
    });
    expect((await client.getAppointment(created.data.id)).data.client?.id).toBe(scene.client.id);
  });

  it('searches availability over a range, with the envelope and typed errors', async () => {
    const from = daysFromToday(1, 'America/New_York');
    const found = await client.searchAvailability({
      serviceId: scene.service.id,
      from,
      to: addDays(from, 2),
      intervalMinutes: 60,
    });
    expect(found.success).toBe(true);
    expect(found.data.map((entry) => entry.date)).toEqual([from, addDays(from, 1), addDays(from, 2)]);
    expect(found.data[0]!.provider).toEqual({ id: scene.provider.id, full_name: scene.provider.full_name });
    const perDay = await client.getAvailableSlots(scene.provider.id, from, 60, 60);
    expect(found.data[0]!.slots).toEqual(perDay.data);
    const named = await client.searchAvailability({
      from,
      to: from,
      providerIds: [scene.provider.id],
      durationMinutes: 30,
      timeZone: 'Europe/Paris',
    });
    expect(named.data.flatMap((entry) => entry.slots)).toHaveLength(31); // 09:00 to 16:30 every 15 minutes
    const failure = await client
      .searchAvailability({ serviceId: scene.service.id, from, to: addDays(from, 31) })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'VALIDATION_ERROR',
      status: 400,
      details: [{ path: 'to', message: expect.any(String) }],
    });
  });

  it('calls the setup resources by their operation names', async () => {
    const room = await client.api.createRoom({ body: { name: 'Suite 9' } });
    expect(room.data.name).toBe('Suite 9');
    const rooms = await client.api.listRooms({ query: { limit: 100 } });
    expect(rooms.data.map((r) => r.id)).toContain(room.data.id);
    const renamed = await client.api.updateRoom({ params: { id: room.data.id }, body: { name: 'Suite 10' } });
    expect(renamed.data).toMatchObject({ name: 'Suite 10', version: 2 });
    const providers = await client.api.listProviders();
    expect(providers.pagination?.total).toBe(1);
  });

  it('throws a typed error carrying the code', async () => {
    const failure = await client
      .createAppointment({
        client_id: 'nope',
        service_id: scene.service.id,
        provider_id: scene.provider.id,
        scheduled_at: nyTime(DAY, '12:00'),
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MedspaApiError);
    expect(failure).toMatchObject({ code: 'CLIENT_NOT_FOUND', status: 404 });
    expect((failure as MedspaApiError).requestId).toBeTruthy();
  });
});
