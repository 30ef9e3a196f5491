import { describe, expect, it } from 'vitest';
import { changePractice } from '../../lib/use-cases/practice';
import { call } from '../fixtures/api';
import { makeScene } from '../fixtures/scheduling';
import { eventTap, localTimeInDays } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// appointment.fee_assessed through the table stream and the production consumer (stream -> bus).
describe('appointment.fee_assessed', () => {
  it('a late cancel emits it with the status change, the object the appointment with its fee; an early cancel does not', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const { practice } = scene;
    const token = practice.adminToken;
    const policy = {
      late_cancel_minutes: 3 * 1440,
      late_cancel_fee: { type: 'fixed' as const, value: 4000 },
      no_show_fee: { type: 'fixed' as const, value: 8000 },
    };
    await changePractice(practice.medspaId, { cancellation_policy: policy }, { now: new Date() });
    const book = async (days: number) =>
      (
        await call('POST', '/v1/appointments', {
          token,
          body: {
            client_id: scene.client.id,
            service_id: scene.service.id,
            provider_id: scene.provider.id,
            scheduled_at: localTimeInDays(days, '10:00'),
          },
        })
      ).body.data;
    const late = await book(2);
    const early = await book(6);
    await tap.drain();

    const cancelled = (await call('POST', `/v1/appointments/${late.id}/cancel`, { token, body: {} })).body.data;
    await call('POST', `/v1/appointments/${early.id}/cancel`, { token, body: {} });
    const events = (await tap.drain()).filter((event) => event.medspa_id === practice.medspaId);
    expect(events.map((event) => `${event.type} ${event.data.object.id === late.id ? 'late' : 'early'}`)).toEqual([
      'appointment.status_changed late',
      'appointment.cancelled late',
      'appointment.fee_assessed late',
      'appointment.status_changed early',
      'appointment.cancelled early',
    ]);
    const assessed = events[2];
    expect(assessed.data.object).toEqual(cancelled);
    expect(assessed.data.object.fees).toMatchObject([{ kind: 'late_cancel', amount_cents: 4000, status: 'due' }]);
    expect(assessed.data.previous).toBeUndefined();
    expect(assessed.created_at).toBe(cancelled.updated_at);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  });
});
