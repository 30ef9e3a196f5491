import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { buildOpenApiDocument } from '../../lib/openapi/document';
import { createAppointment, updateAppointment } from '../../lib/use-cases/booking';
import { call } from '../fixtures/api';
import { makeProvider } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { book, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';

const DAY = BOOKING_DAY;
const minutes = (n: number) => n * 60_000;

afterEach(() => setClock(null));

describe('PROVIDER_UNAVAILABLE says why (contract 2: details with reason)', () => {
  it('outside_working_hours', async () => {
    const scene = await makeScene();
    const response = await book(scene, { scheduled_at: nyTime(DAY, '08:00') });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      details: [{ path: 'scheduled_at', reason: 'outside_working_hours', message: expect.any(String) }],
      request_id: response.headers['x-request-id'],
    });
  });

  it('time_off', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const offStart = nyTime(DAY, '09:00');
    const offEnd = nyTime(DAY, '12:00');
    expect(
      (
        await call('PATCH', `/v1/providers/${scene.provider.id}`, {
          token,
          body: { time_off: [{ start: offStart, end: offEnd, reason: 'training' }] },
        })
      ).status,
    ).toBe(200);
    const response = await book(scene);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(response.body.error.details).toEqual([
      { path: 'scheduled_at', reason: 'time_off', message: expect.stringContaining(new Date(offStart).toISOString()) },
    ]);
  });

  it('inactive (on the provider id, before any time reason)', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    expect((await call('PATCH', `/v1/providers/${scene.provider.id}`, { token, body: { active: false } })).status).toBe(
      200,
    );
    const inHours = await book(scene);
    expect(inHours.status).toBe(409);
    expect(inHours.body.error).toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      details: [{ path: 'provider_id', reason: 'inactive', message: expect.any(String) }],
    });
    const outOfHours = await book(scene, { scheduled_at: nyTime(DAY, '07:00') });
    expect(outOfHours.body.error.details.map((d: { reason: string }) => d.reason)).toEqual([
      'inactive',
      'outside_working_hours',
    ]);
  });

  it('overlap, naming the overlapping appointment (every one of them)', async () => {
    const scene = await makeScene();
    const first = (await book(scene, { scheduled_at: nyTime(DAY, '10:00') })).body.data;
    const second = (await book(scene, { scheduled_at: nyTime(DAY, '11:00') })).body.data;
    const response = await book(scene, { scheduled_at: nyTime(DAY, '10:30') });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(response.body.error.details).toEqual([
      { path: 'scheduled_at', reason: 'overlap', appointment_id: first.id, message: expect.stringContaining(first.id) },
      {
        path: 'scheduled_at',
        reason: 'overlap',
        appointment_id: second.id,
        message: expect.stringContaining(second.id),
      },
    ]);
  });

  it('a move says the same (its own old time never overlaps it)', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene, { scheduled_at: nyTime(DAY, '10:00') })).body.data;
    const b = (await book(scene, { scheduled_at: nyTime(DAY, '12:00') })).body.data;
    const clash = await call('PATCH', `/v1/appointments/${b.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '10:30') },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.details).toEqual([
      { path: 'scheduled_at', reason: 'overlap', appointment_id: a.id, message: expect.any(String) },
    ]);
    const late = await call('PATCH', `/v1/appointments/${b.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '16:30') },
    });
    expect(late.body.error.details).toEqual([
      { path: 'scheduled_at', reason: 'outside_working_hours', message: expect.any(String) },
    ]);
  });

  it('rooms and equipment carry the same details (overlap with the appointment id, inactive)', async () => {
    const scene = await makeScene({ providers: 2 });
    const token = scene.practice.adminToken;
    const first = (await book(scene, { room_id: scene.room.id })).body.data;
    const roomTaken = await book(scene, {
      provider_id: scene.providers[1].id,
      room_id: scene.room.id,
      scheduled_at: nyTime(DAY, '10:30'),
    });
    expect(roomTaken.body.error).toMatchObject({
      code: 'ROOM_UNAVAILABLE',
      details: [{ path: 'scheduled_at', reason: 'overlap', appointment_id: first.id }],
    });
    expect(
      (await call('PATCH', `/v1/equipment/${scene.equipment.id}`, { token, body: { active: false } })).status,
    ).toBe(200);
    const off = await book(scene, {
      provider_id: scene.providers[1].id,
      equipment_id: scene.equipment.id,
      scheduled_at: nyTime(DAY, '13:00'),
    });
    expect(off.body.error).toMatchObject({
      code: 'EQUIPMENT_UNAVAILABLE',
      details: [{ path: 'equipment_id', reason: 'inactive' }],
    });
  });

  it('the OpenAPI error schema documents reason and appointment_id', () => {
    const doc = buildOpenApiDocument() as { components: { schemas: Record<string, any> } };
    const problem = doc.components.schemas.FieldProblem;
    expect(problem.properties.reason.enum).toEqual(['outside_working_hours', 'time_off', 'inactive', 'overlap']);
    expect(problem.properties.appointment_id).toMatchObject({ type: 'string' });
  });
});

describe('no booking more than 5 minutes in the past (contract 4), judged by the request time', () => {
  it('create: 5 minutes late is accepted, a second more is 400 on scheduled_at, and nothing is written', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const start = nyTime(DAY, '10:00');
    setClock(new Date(Date.parse(start) + minutes(5) + 1000));
    const refused = await book(scene, { scheduled_at: start });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'scheduled_at', message: expect.stringContaining('past') }],
    });
    expect((await call('GET', `/v1/appointments?from=${DAY}&to=${DAY}`, { token })).body.pagination.total).toBe(0);

    setClock(new Date(Date.parse(start) + minutes(5)));
    expect((await book(scene, { scheduled_at: start })).status).toBe(201);
  });

  it('create: yesterday, in real time too', async () => {
    const scene = await makeScene();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const response = await book(scene, { scheduled_at: yesterday });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([expect.objectContaining({ path: 'scheduled_at' })]);
  });

  it('the use case takes the `now` it is given, not the wall clock', async () => {
    const scene = await makeScene();
    const input = {
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      scheduled_at: nyTime(DAY, '09:00'),
      source: 'manual' as const,
    };
    const later = new Date(Date.parse(nyTime(DAY, '09:06')));
    await expect(createAppointment(scene.practice.medspaId, input, later)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const created = await createAppointment(scene.practice.medspaId, input, new Date(Date.parse(nyTime(DAY, '09:04'))));
    await expect(
      updateAppointment(
        scene.practice.medspaId,
        created.id,
        { scheduled_at: nyTime(DAY, '08:59') },
        { now: new Date(Date.parse(nyTime(DAY, '09:05'))) },
      ),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'scheduled_at' }] });
  });

  it('move: to a past time, or changing the provider of one that started, is 400; a note on it is fine', async () => {
    const scene = await makeScene({ providers: 2 });
    const token = scene.practice.adminToken;
    const a = (await book(scene, { scheduled_at: nyTime(DAY, '10:00') })).body.data;
    // The request happens at 11:00 that day: 10:00 began an hour ago.
    setClock(new Date(Date.parse(nyTime(DAY, '11:00'))));
    const back = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '09:00') },
    });
    expect(back.status).toBe(400);
    expect(back.body.error.details).toEqual([expect.objectContaining({ path: 'scheduled_at' })]);
    const swap = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      body: { provider_id: scene.providers[1].id },
    });
    expect(swap.status).toBe(400);
    expect(swap.body.error.details).toEqual([expect.objectContaining({ path: 'scheduled_at' })]);
    const note = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      body: { notes: 'ran late', scheduled_at: a.scheduled_at },
    });
    expect(note.status).toBe(200);
    expect(note.body.data).toMatchObject({
      notes: 'ran late',
      provider_id: scene.provider.id,
      scheduled_at: a.scheduled_at,
      version: 2,
    });
    // Forward to a future time is a move that starts in the future: fine.
    const forward = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      body: { scheduled_at: nyTime(addDays(DAY, 1), '10:00') },
    });
    expect(forward.status).toBe(200);
  });

  it('a past start is a field check: 400 before the lookups (here an uncertified provider)', async () => {
    const scene = await makeScene();
    const stranger = await makeProvider(scene.practice);
    setClock(new Date(Date.parse(nyTime(DAY, '12:00'))));
    const response = await book(scene, { provider_id: stranger.id, scheduled_at: nyTime(DAY, '10:00') });
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });
});
