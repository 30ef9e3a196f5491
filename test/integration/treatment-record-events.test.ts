import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { addDays } from '../fixtures/dates';
import { BOOKING_DAY, booked, makeScene, nyTime } from '../fixtures/scheduling';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// The table's real stream through the production consumer: signing and amending a treatment
// record each send their event once, whatever else the record's writes touched.

describe('treatment_record events from the table stream', () => {
  it('a sign is one treatment_record.signed, an amendment one treatment_record.amended; drafts, refusals and replays add none', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const appointment = await booked(scene, { scheduled_at: nyTime(addDays(BOOKING_DAY, 1), '10:00') });
    for (const status of ['confirmed', 'checked_in'])
      await call('PATCH', `/v1/appointments/${appointment.id}/status`, { token, body: { status } });
    const base = `/v1/appointments/${appointment.id}/treatment-record`;
    await call('PUT', base, { token, body: { summary: 'draft' } });
    await call('PUT', base, { token, body: { summary: 'final' } });
    const signed = (await call('POST', `${base}/sign`, { token })).body.data;
    expect((await call('POST', `${base}/sign`, { token })).status).toBe(409);
    expect((await call('PUT', base, { token, body: { summary: 'no' } })).status).toBe(409);
    const amended = (
      await call('POST', `${base}/amendments`, { token, body: { reason: 'addendum', record: { summary: 'final+' } } })
    ).body.data;
    const events = (await tap.drain()).filter(
      (event) => event.type.startsWith('treatment_record.') && event.data.object.appointment_id === appointment.id,
    );
    expect(events.map((event) => [event.type, event.data.object])).toEqual([
      ['treatment_record.signed', signed],
      ['treatment_record.amended', amended],
    ]);
    expect(events.every((event) => event.medspa_id === scene.practice.medspaId)).toBe(true);
    // A replayed stream yields the same events under the same ids (a receiver dedupes on Webhook-Id).
    const replayed = (await tap.replay(tap.seen)).filter((event) => event.type.startsWith('treatment_record.'));
    expect(replayed.map((event) => event.id)).toEqual(events.map((event) => event.id));
  });
});
