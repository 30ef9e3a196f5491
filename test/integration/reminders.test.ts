import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { reminderSweepCheckpointKey } from '../../lib/db/keys';
import type { ContractEvent } from '../../lib/events/types';
import { scheduledReminderEventId, sweepReminders } from '../../lib/use-cases/reminders';
import { call } from '../fixtures/api';
import { makeScene, type Scene } from '../fixtures/scheduling';
import { eventTap, localTimeInDays } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// Scheduled reminders on DynamoDB Local: bookings through the real handlers, the stream through
// the production consumer (which arms reminders), and sweeps at fake instants passed in. Each
// test books on its own day, so their due minutes never meet; the sweep checkpoint (one per
// table) is reset before each test, as each test travels in time on its own.

beforeEach(async () => {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: reminderSweepCheckpointKey() }));
});

const MINUTE = 60_000;
const minutesBefore = (iso: string, minutes: number) => new Date(Date.parse(iso) - minutes * MINUTE);
const reminders = (events: ContractEvent[]) => events.filter((event) => event.type === 'appointment.reminder');

async function book(scene: Scene, scheduledAt: string, provider = scene.provider) {
  const response = await call('POST', '/v1/appointments', {
    token: scene.practice.adminToken,
    body: {
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: provider.id,
      scheduled_at: scheduledAt,
    },
  });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; scheduled_at: string; medspa_id: string };
}

describe('scheduled reminders', () => {
  it('fire exactly once at the lead time (default 1440 minutes), not a minute before', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const appointment = await book(scene, localTimeInDays(3, '10:00'));
    await tap.drain();

    // Not yet: the minute before the lead time.
    const early = await sweepReminders(new Date(minutesBefore(appointment.scheduled_at, 1440).getTime() - 1));
    expect(early.sent).toBe(0);
    expect(reminders(await tap.drain())).toEqual([]);

    // At the lead time: one reminder, the appointment as its object, a deterministic id.
    const due = minutesBefore(appointment.scheduled_at, 1440);
    expect((await sweepReminders(due)).sent).toBe(1);
    const events = reminders(await tap.drain());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: scheduledReminderEventId(appointment.medspa_id, appointment.id, appointment.scheduled_at),
      medspa_id: appointment.medspa_id,
      created_at: due.toISOString(),
      data: { object: { id: appointment.id, scheduled_at: appointment.scheduled_at, status: 'scheduled' } },
    });

    // Later sweeps find nothing more.
    expect((await sweepReminders(new Date(due.getTime() + MINUTE))).sent).toBe(0);
    expect((await sweepReminders(new Date(due.getTime() + 2 * MINUTE))).sent).toBe(0);
    expect(reminders(await tap.drain())).toEqual([]);
  });

  it('follow the practice setting reminder_lead_minutes', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    await call('PATCH', '/v1/practice', { token: scene.practice.adminToken, body: { reminder_lead_minutes: 90 } });
    const appointment = await book(scene, localTimeInDays(4, '09:30'));
    await tap.drain();
    expect((await sweepReminders(minutesBefore(appointment.scheduled_at, 91))).sent).toBe(0);
    expect((await sweepReminders(minutesBefore(appointment.scheduled_at, 90))).sent).toBe(1);
    expect(reminders(await tap.drain()).map((event) => event.data.object.id)).toEqual([appointment.id]);
  });

  it('a reschedule re-arms: the new time fires, the old time never does', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const appointment = await book(scene, localTimeInDays(5, '10:00'));
    await tap.drain();
    const moved = (
      await call('PATCH', `/v1/appointments/${appointment.id}`, {
        token: scene.practice.adminToken,
        body: { scheduled_at: localTimeInDays(5, '11:00') },
      })
    ).body.data;
    await tap.drain();

    const atOldTime = await sweepReminders(minutesBefore(appointment.scheduled_at, 1440));
    expect(atOldTime).toMatchObject({ sent: 0, lapsed: 1 });
    expect(reminders(await tap.drain())).toEqual([]);

    expect((await sweepReminders(minutesBefore(moved.scheduled_at, 1440))).sent).toBe(1);
    const events = reminders(await tap.drain());
    expect(events.map((event) => event.data.object.scheduled_at)).toEqual([moved.scheduled_at]);
  });

  it('none for cancelled, no-show, completed or deleted appointments', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const times = ['09:00', '10:00', '11:00', '12:00'].map((hhmm) => localTimeInDays(6, hhmm));
    const [cancelled, noShow, completed, deleted] = await Promise.all(times.map((time) => book(scene, time)));
    await tap.drain();
    const status = (id: string, to: string) =>
      call('PATCH', `/v1/appointments/${id}/status`, { token, body: { status: to } });
    await call('POST', `/v1/appointments/${cancelled.id}/cancel`, { token });
    for (const to of ['confirmed', 'checked_in', 'no_show']) await status(noShow.id, to);
    for (const to of ['confirmed', 'checked_in', 'in_progress', 'completed']) await status(completed.id, to);
    await call('DELETE', `/v1/appointments/${deleted.id}`, { token });
    await tap.drain();

    const result = await sweepReminders(minutesBefore(times[3], 1440), { firstRunMinutes: 240, maxMinutes: 240 });
    expect(result).toMatchObject({ sent: 0, lapsed: 4 });
    expect(reminders(await tap.drain())).toEqual([]);
  });

  it('never twice: concurrent sweeps, repeated sweeps and a replayed stream write one reminder per appointment time', async () => {
    const tap = eventTap();
    const scene = await makeScene({ providers: 2 });
    // Two appointments due in the same minute.
    const first = await book(scene, localTimeInDays(7, '10:00'));
    const second = await book(scene, localTimeInDays(7, '10:00'), scene.providers[1]);
    await tap.drain();
    const bookings = [...tap.seen];

    const due = minutesBefore(second.scheduled_at, 1440);
    const results = await Promise.all([sweepReminders(due), sweepReminders(due), sweepReminders(due)]);
    expect(results.reduce((sum, result) => sum + result.sent, 0)).toBe(2);
    expect((await sweepReminders(due)).sent).toBe(0);

    // The stream delivered again (at-least-once): the reminders are armed again, and still not sent again.
    await tap.replay(bookings);
    // Both re-armed items are found, and refused by their sent markers.
    expect(await sweepReminders(new Date(due.getTime() + MINUTE))).toMatchObject({ sent: 0, lapsed: 2 });

    const events = reminders(await tap.drain());
    expect(events.map((event) => event.data.object.id).sort()).toEqual([first.id, second.id].sort());
  });

  it('an appointment booked inside the lead time is reminded the next minute', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    await call('PATCH', '/v1/practice', {
      token: scene.practice.adminToken,
      body: { reminder_lead_minutes: 60 * 24 * 14 },
    });
    const appointment = await book(scene, localTimeInDays(8, '10:00'));
    const armedAt = new Date();
    await tap.drain();
    const nextMinute = new Date((Math.floor(armedAt.getTime() / MINUTE) + 1) * MINUTE);
    expect((await sweepReminders(new Date(nextMinute.getTime() + 5 * MINUTE))).sent).toBe(1);
    expect(reminders(await tap.drain()).map((event) => event.data.object.id)).toEqual([appointment.id]);
  });
});
