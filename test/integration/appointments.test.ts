import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { makeProvider, makeService } from '../fixtures/builders';
import { addDays, nextDstChange, utc } from '../fixtures/dates';
import { book, BOOKING_DAY, claimItems, makeScene, nyTime } from '../fixtures/scheduling';

/** The day `book` uses by default, some weeks ahead. */
const DAY = BOOKING_DAY;
/** A claim item's sort key: the UTC hour of an instant. */
const hourOf = (instant: string) => instant.slice(0, 13);

describe('create appointment', () => {
  it('books with the service duration and price snapshot, and claims the provider, room and equipment', async () => {
    const scene = await makeScene();
    const response = await book(scene, {
      room_id: scene.room.id,
      equipment_id: scene.equipment.id,
      source: 'online',
      notes: 'first visit',
    });
    expect(response.status).toBe(201);
    const appointment = response.body.data;
    expect(appointment).toMatchObject({
      medspa_id: scene.practice.medspaId,
      client_id: scene.client.id,
      status: 'scheduled',
      scheduled_at: utc(DAY, '10:00'),
      end_at: utc(DAY, '11:00'),
      duration_minutes: 60,
      price_cents: 25000,
      source: 'online',
      notes: 'first visit',
      cancelled_at: null,
      version: 1,
    });
    expect(response.headers.etag).toBe('"1"');
    for (const [resource, id] of [
      ['PROVIDER', scene.provider.id],
      ['ROOM', scene.room.id],
      ['EQUIPMENT', scene.equipment.id],
    ] as const) {
      const items = await claimItems(scene.practice.medspaId, resource, id);
      expect(items.map((item) => item.sk)).toEqual([hourOf(utc(DAY, '10:00'))]);
      expect(Object.keys(items[0].entries)).toEqual([appointment.id]);
    }
  });

  it('takes duration_minutes over the service duration and defaults source to manual', async () => {
    const scene = await makeScene();
    const response = await book(scene, { duration_minutes: 90 });
    expect(response.body.data).toMatchObject({ duration_minutes: 90, end_at: utc(DAY, '11:30'), source: 'manual' });
  });

  it('answers each validation failure with its code, in the contract order, and writes nothing', async () => {
    const scene = await makeScene();
    const uncertified = await makeProvider(scene.practice);
    const missing = '00000000-0000-4000-8000-000000000000';
    await book(scene, { scheduled_at: nyTime(DAY, '11:00'), room_id: scene.room.id, equipment_id: scene.equipment.id });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ client_id: missing, service_id: missing }, 404, 'CLIENT_NOT_FOUND'],
      [{ client_id: 'not-a-uuid' }, 404, 'CLIENT_NOT_FOUND'],
      [{ service_id: missing, provider_id: missing }, 404, 'SERVICE_NOT_FOUND'],
      [{ provider_id: missing }, 404, 'PROVIDER_NOT_FOUND'],
      [{ provider_id: uncertified.id }, 422, 'PROVIDER_NOT_CERTIFIED'],
      [{ scheduled_at: nyTime(DAY, '08:00') }, 409, 'PROVIDER_UNAVAILABLE'],
      [{ scheduled_at: nyTime(DAY, '16:30') }, 409, 'PROVIDER_UNAVAILABLE'],
      [{ scheduled_at: nyTime(DAY, '11:30') }, 409, 'PROVIDER_UNAVAILABLE'],
      [{ scheduled_at: nyTime(DAY, '13:00'), room_id: missing }, 404, 'ROOM_NOT_FOUND'],
      [{ scheduled_at: nyTime(DAY, '13:00'), equipment_id: missing }, 404, 'EQUIPMENT_NOT_FOUND'],
      [{ scheduled_at: `${DAY}T10:00:00` }, 400, 'VALIDATION_ERROR'],
      [{ duration_minutes: 0 }, 400, 'VALIDATION_ERROR'],
      [{ source: 'fax' }, 400, 'VALIDATION_ERROR'],
    ];
    for (const [overrides, status, code] of cases) {
      const response = await book(scene, overrides);
      expect({ overrides, status: response.status, code: response.body.error?.code }).toEqual({
        overrides,
        status,
        code,
      });
    }
    const list = await call('GET', `/v1/appointments?from=${DAY}&to=${DAY}`, { token: scene.practice.adminToken });
    expect(list.body.pagination.total).toBe(1);
  });

  it('refuses a booked room or equipment with another provider, and a provider on time off', async () => {
    const scene = await makeScene({ providers: 2 });
    const other = scene.providers[1];
    await book(scene, { room_id: scene.room.id, equipment_id: scene.equipment.id });
    const roomTaken = await book(scene, {
      provider_id: other.id,
      room_id: scene.room.id,
      scheduled_at: nyTime(DAY, '10:30'),
    });
    expect(roomTaken.status).toBe(409);
    expect(roomTaken.body.error.code).toBe('ROOM_UNAVAILABLE');
    const equipmentTaken = await book(scene, {
      provider_id: other.id,
      equipment_id: scene.equipment.id,
      scheduled_at: nyTime(DAY, '10:30'),
    });
    expect(equipmentTaken.body.error.code).toBe('EQUIPMENT_UNAVAILABLE');

    await call('PATCH', `/v1/providers/${other.id}`, {
      token: scene.practice.adminToken,
      body: {
        time_off: [
          { start: nyTime(addDays(DAY, 1), '00:00'), end: nyTime(addDays(DAY, 2), '00:00'), reason: 'conference' },
        ],
      },
    });
    const onTimeOff = await book(scene, { provider_id: other.id, scheduled_at: nyTime(addDays(DAY, 1), '10:00') });
    expect(onTimeOff.body.error.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('allows back-to-back appointments', async () => {
    const scene = await makeScene();
    expect((await book(scene, { scheduled_at: nyTime(DAY, '10:00') })).status).toBe(201);
    expect((await book(scene, { scheduled_at: nyTime(DAY, '11:00') })).status).toBe(201);
    expect((await book(scene, { scheduled_at: nyTime(DAY, '09:00') })).status).toBe(201);
  });
});

describe('cancel, no-show, delete free the time', () => {
  it('cancel records when and why, and the slot is bookable again at once', async () => {
    const scene = await makeScene();
    const first = (await book(scene)).body.data;
    expect((await book(scene)).body.error.code).toBe('PROVIDER_UNAVAILABLE');
    const cancelled = await call('POST', `/v1/appointments/${first.id}/cancel`, {
      token: scene.practice.adminToken,
      body: { reason: 'client sick' },
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancellation_reason: 'client sick', version: 2 });
    expect(cancelled.body.data.cancelled_at).toMatch(/Z$/);
    expect((await book(scene)).status).toBe(201);
  });

  it('no-show frees the time; delete removes the appointment and its claims', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const first = (await book(scene)).body.data;
    for (const status of ['confirmed', 'checked_in']) {
      expect((await call('PATCH', `/v1/appointments/${first.id}/status`, { token, body: { status } })).status).toBe(
        200,
      );
    }
    expect((await call('POST', `/v1/appointments/${first.id}/no-show`, { token })).body.data.status).toBe('no_show');
    const second = (await book(scene)).body.data;
    const deleted = await call('DELETE', `/v1/appointments/${second.id}`, { token });
    expect(deleted.body).toEqual({ success: true, data: { id: second.id, deleted: true } });
    expect((await call('GET', `/v1/appointments/${second.id}`, { token })).status).toBe(404);
    const claims = await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id);
    expect(claims.flatMap((item) => Object.keys(item.entries))).toEqual([]);
  });

  it('slots reflect bookings and cancellations', async () => {
    const scene = await makeScene();
    const slotsUrl = `/v1/providers/${scene.provider.id}/slots?date=${DAY}&duration_minutes=60&interval_minutes=60`;
    const token = scene.practice.adminToken;
    const before = (await call('GET', slotsUrl, { token })).body.data;
    expect(before.map((s: { slot_start: string }) => s.slot_start)).toEqual(
      ['09', '10', '11', '12', '13', '14', '15', '16'].map((h) => utc(DAY, `${h}:00`)),
    );
    const booked = (await book(scene)).body.data;
    const after = (await call('GET', slotsUrl, { token })).body.data;
    expect(after).toHaveLength(7);
    expect(after.map((s: { slot_start: string }) => s.slot_start)).not.toContain(utc(DAY, '10:00'));
    await call('POST', `/v1/appointments/${booked.id}/cancel`, { token });
    expect((await call('GET', slotsUrl, { token })).body.data).toHaveLength(8);
  });
});

describe('update (reschedule and resource change)', () => {
  it('moves atomically: the old time is freed and the new one claimed', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const appointment = (await book(scene)).body.data;
    const moved = await call('PATCH', `/v1/appointments/${appointment.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '13:00'), notes: 'moved' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({
      scheduled_at: utc(DAY, '13:00'),
      end_at: utc(DAY, '14:00'),
      notes: 'moved',
      version: 2,
    });
    const claims = await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id);
    const held = claims.filter((item) => Object.keys(item.entries).length > 0).map((item) => item.sk);
    expect(held).toEqual([hourOf(utc(DAY, '13:00'))]);
    expect((await book(scene)).status).toBe(201);
  });

  it('re-validates a move like a create, and only scheduled or confirmed appointments move', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene)).body.data;
    const b = (await book(scene, { scheduled_at: nyTime(DAY, '12:00') })).body.data;
    const clash = await call('PATCH', `/v1/appointments/${b.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '10:30') },
    });
    expect(clash.body.error.code).toBe('PROVIDER_UNAVAILABLE');
    // Extending into its own old time is fine.
    expect((await call('PATCH', `/v1/appointments/${a.id}`, { token, body: { duration_minutes: 120 } })).status).toBe(
      200,
    );
    await call('PATCH', `/v1/appointments/${b.id}/status`, { token, body: { status: 'confirmed' } });
    await call('PATCH', `/v1/appointments/${b.id}/status`, { token, body: { status: 'checked_in' } });
    const locked = await call('PATCH', `/v1/appointments/${b.id}`, {
      token,
      body: { scheduled_at: nyTime(DAY, '15:00') },
    });
    expect(locked.body.error.code).toBe('INVALID_STATUS_TRANSITION');
    expect(
      (await call('PATCH', `/v1/appointments/${b.id}`, { token, body: { internal_notes: 'arrived early' } })).status,
    ).toBe(200);
  });

  it('honours If-Match', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene)).body.data;
    const stale = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      headers: { 'if-match': '"7"' },
      body: { notes: 'x' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('VERSION_CONFLICT');
    const fresh = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      headers: { 'if-match': '"1"' },
      body: { notes: 'x' },
    });
    expect(fresh.headers.etag).toBe('"2"');
  });

  it('changes the provider only to a certified, free one', async () => {
    const scene = await makeScene({ providers: 2 });
    const token = scene.practice.adminToken;
    const stranger = await makeProvider(scene.practice);
    const a = (await book(scene)).body.data;
    expect(
      (await call('PATCH', `/v1/appointments/${a.id}`, { token, body: { provider_id: stranger.id } })).body.error.code,
    ).toBe('PROVIDER_NOT_CERTIFIED');
    const moved = await call('PATCH', `/v1/appointments/${a.id}`, {
      token,
      body: { provider_id: scene.providers[1].id },
    });
    expect(moved.body.data.provider_id).toBe(scene.providers[1].id);
    expect((await book(scene)).status).toBe(201);
  });
});

describe('detail, treatment record, reminders, availability', () => {
  it('shows nested records and the treatment record once completed', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene, { room_id: scene.room.id })).body.data;
    for (const status of ['confirmed', 'checked_in', 'in_progress'])
      await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status } });
    const record = await call('PUT', `/v1/appointments/${a.id}/treatment-record`, {
      token,
      body: { summary: '20 units', areas_treated: ['forehead'] },
    });
    expect(record.status).toBe(200);
    let detail = (await call('GET', `/v1/appointments/${a.id}`, { token })).body.data;
    expect(detail.treatment_record).toBeNull();
    await call('PATCH', `/v1/appointments/${a.id}/status`, { token, body: { status: 'completed' } });
    detail = (await call('GET', `/v1/appointments/${a.id}`, { token })).body.data;
    expect(detail).toMatchObject({
      status: 'completed',
      client: { id: scene.client.id, first_name: scene.client.first_name },
      service: { id: scene.service.id, name: scene.service.name },
      provider: { id: scene.provider.id, full_name: scene.provider.full_name },
      room: { id: scene.room.id },
      equipment: null,
      consent_forms: [],
      treatment_record: { summary: '20 units', areas_treated: ['forehead'], appointment_id: a.id },
    });
  });

  it('records a reminder request for an active appointment only', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene)).body.data;
    const reminder = await call('POST', `/v1/appointments/${a.id}/reminders`, { token });
    expect(reminder.status).toBe(202);
    expect(reminder.body.data.event_id).toMatch(/^evt_[0-9a-f]{32}$/);
    await call('POST', `/v1/appointments/${a.id}/cancel`, { token });
    expect((await call('POST', `/v1/appointments/${a.id}/reminders`, { token })).status).toBe(409);
  });

  it('checks availability with conflicts', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = (await book(scene, { room_id: scene.room.id })).body.data;
    const url = (start: string, end: string, extra = '') =>
      `/v1/providers/${scene.provider.id}/availability?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}${extra}`;
    const busy = (await call('GET', url(nyTime(DAY, '10:30'), nyTime(DAY, '11:30')), { token })).body.data;
    expect(busy).toEqual({
      isAvailable: false,
      conflicts: [{ type: 'provider_booked', start: a.scheduled_at, end: a.end_at, appointment_id: a.id }],
    });
    const free = (
      await call('GET', url(nyTime(DAY, '11:00'), nyTime(DAY, '12:00'), `&room_id=${scene.room.id}`), { token })
    ).body.data;
    expect(free).toEqual({ isAvailable: true, conflicts: [] });
    const early = (await call('GET', url(nyTime(DAY, '07:00'), nyTime(DAY, '08:00')), { token })).body.data;
    expect(early.conflicts[0].type).toBe('outside_working_hours');
    expect(
      (await call('GET', url(nyTime(DAY, '11:00'), nyTime(DAY, '12:00'), '&room_id=nope'), { token })).body.error.code,
    ).toBe('ROOM_NOT_FOUND');
    expect(
      (
        await call(
          'GET',
          `/v1/providers/nope/availability?start=${encodeURIComponent(nyTime(DAY, '11:00'))}&end=${encodeURIComponent(nyTime(DAY, '12:00'))}`,
          { token },
        )
      ).status,
    ).toBe(404);
  });

  it('serves slots across the next DST changes at 09:00 local', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    // New York's next spring-forward (09:00 is EDT, UTC-4) and fall-back (09:00 is EST, UTC-5) days, weeks ahead.
    const [spring, autumn] = [nextDstChange('spring'), nextDstChange('autumn')];
    for (const [date, first] of [
      [spring, `${spring}T13:00:00.000Z`],
      [autumn, `${autumn}T14:00:00.000Z`],
    ]) {
      const slots = (
        await call('GET', `/v1/providers/${scene.provider.id}/slots?date=${date}&duration_minutes=60`, { token })
      ).body.data;
      expect(slots[0].slot_start).toBe(first);
      expect(slots).toHaveLength(29);
    }
  });

  it('slots can take the duration from a service', async () => {
    const scene = await makeScene();
    const service = await makeService(scene.practice, { provider_ids: [scene.provider.id], duration_minutes: 240 });
    const slots = (
      await call(
        'GET',
        `/v1/providers/${scene.provider.id}/slots?date=${DAY}&service_id=${service.id}&interval_minutes=60`,
        { token: scene.practice.adminToken },
      )
    ).body.data;
    expect(slots).toHaveLength(5);
  });
});

describe('booking races a client deletion', () => {
  it('the booking transaction itself refuses a client deleted after the read', async () => {
    const { commitAppointment } = await import('../../lib/db/appointments');
    const { clientIsLive } = await import('../../lib/db/client-stats');
    const scene = await makeScene();
    const template = (await book(scene)).body.data;
    await call('POST', `/v1/appointments/${template.id}/cancel`, { token: scene.practice.adminToken });
    await call('DELETE', `/v1/clients/${scene.client.id}`, { token: scene.practice.adminToken });
    // What a create that read the client just before its deletion would commit.
    const appointment = {
      ...template,
      id: '11111111-1111-4111-8111-111111111111',
      status: 'scheduled' as const,
      version: 1,
    };
    const result = await commitAppointment({ kind: 'create', appointment }, [], scene.practice.medspaId, [
      clientIsLive(scene.practice.medspaId, scene.client.id),
    ]);
    expect(result).toEqual({ ok: false, failed: 'alongside', index: 0 });
    expect((await call('GET', `/v1/appointments/${appointment.id}`, { token: scene.practice.adminToken })).status).toBe(
      404,
    );
  });
});

describe('malformed ids are 404s of their resource', () => {
  it('in the path and in the body, whatever their length or characters', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    for (const id of ['x'.repeat(3000), 'ünïcødé-%F0%9F%92%A5', 'NOT-A-UUID', "1' OR '1'='1"]) {
      const path = encodeURIComponent(id);
      expect((await call('GET', `/v1/appointments/${path}`, { token })).body.error.code).toBe('APPOINTMENT_NOT_FOUND');
      expect((await call('POST', `/v1/appointments/${path}/cancel`, { token })).body.error.code).toBe(
        'APPOINTMENT_NOT_FOUND',
      );
      expect(
        (await call('GET', `/v1/providers/${path}/slots?date=${DAY}&duration_minutes=30`, { token })).body.error.code,
      ).toBe('PROVIDER_NOT_FOUND');
      expect((await book(scene, { client_id: id })).body.error.code).toBe('CLIENT_NOT_FOUND');
      expect((await book(scene, { room_id: id })).body.error.code).toBe('ROOM_NOT_FOUND');
    }
  });

  it('an upper-case spelling of a real id finds it', async () => {
    const scene = await makeScene();
    const a = (await book(scene)).body.data;
    const found = await call('GET', `/v1/appointments/${a.id.toUpperCase()}`, { token: scene.practice.adminToken });
    expect(found.body.data.id).toBe(a.id);
  });
});
