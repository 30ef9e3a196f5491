import { describe, expect, it } from 'vitest';
import type { ContractEvent } from '../../lib/events/types';
import { Appointment } from '../../lib/schemas/appointments';
import { Consent } from '../../lib/schemas/clients';
import { Payment } from '../../lib/schemas/payments';
import { Product } from '../../lib/schemas/products';
import { Client } from '../../lib/schemas/resources';
import { call } from '../fixtures/api';
import { makeProduct } from '../fixtures/builders';
import { makeScene } from '../fixtures/scheduling';
import { eventTap, localTimeInDays } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// Every operation through the real router and handlers on DynamoDB Local, then the table's real
// stream through the production consumer (lib/use-cases/stream-to-bus) into a list.

const STORAGE = [
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'entity',
  'deleted_at',
  'headroom',
  'no_show_count',
  'expires_at',
];
const schemaFor: Record<string, { shape: Record<string, unknown> }> = {
  appointment: Appointment,
  client: Client,
  payment: Payment,
  consent: Consent,
  product: Product,
};

const ofPractice = (events: ContractEvent[], medspaId: string) =>
  events.filter((event) => event.medspa_id === medspaId);
const summary = (events: ContractEvent[]) =>
  events.map((event) => `${event.type} ${String(event.data.object.id).slice(0, 8)}`);

describe('contract events from the table stream, operation by operation', () => {
  it('each operation yields exactly its events, with public objects, previous values and stable ids', async () => {
    const tap = eventTap();
    const scene = await makeScene();
    const { practice, client } = scene;
    const token = practice.adminToken;
    const medspaId = practice.medspaId;
    const book = async (scheduledAt: string) => {
      const response = await call('POST', '/v1/appointments', {
        token,
        body: {
          client_id: client.id,
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          room_id: scene.room.id,
          scheduled_at: scheduledAt,
        },
      });
      expect(response.status).toBe(201);
      return response.body.data;
    };
    const step = async () => ofPractice(await tap.drain(), medspaId);

    // Setup: the practice, provider, service, room and equipment emit nothing; the client is created.
    let events = await step();
    expect(events.map((event) => event.type)).toEqual(['client.created']);
    expect(events[0].data.object).toMatchObject({
      id: client.id,
      email: client.email,
      health_score: expect.any(Number),
    });

    // Book.
    const first = await book(localTimeInDays(6, '10:00'));
    events = await step();
    expect(events.map((event) => event.type)).toEqual(['appointment.created']);
    expect(events[0].data.object).toEqual(first);
    expect(events[0].created_at).toBe(first.created_at);

    // Reschedule and edit a note in one PATCH: ONE updated, previous = old values of what changed.
    const moved = (
      await call('PATCH', `/v1/appointments/${first.id}`, {
        token,
        body: { scheduled_at: localTimeInDays(6, '13:00'), notes: 'bring sunscreen' },
      })
    ).body.data;
    events = await step();
    expect(events.map((event) => event.type)).toEqual(['appointment.updated']);
    expect(events[0].data.previous).toEqual({ scheduled_at: first.scheduled_at, end_at: first.end_at, notes: null });
    expect(events[0].data.object).toEqual(moved);

    // A reminder on demand: delivered under the id the API answered.
    const reminder = await call('POST', `/v1/appointments/${first.id}/reminders`, { token });
    expect(reminder.status).toBe(202);
    events = await step();
    expect(events).toEqual([
      {
        id: reminder.body.data.event_id,
        type: 'appointment.reminder',
        created_at: reminder.body.data.requested_at,
        medspa_id: medspaId,
        data: { object: moved },
      },
    ]);

    // Status moves through to completion, with a treatment record on the way (no event of its own).
    for (const status of ['confirmed', 'checked_in', 'in_progress']) {
      expect((await call('PATCH', `/v1/appointments/${first.id}/status`, { token, body: { status } })).status).toBe(
        200,
      );
    }
    await call('PUT', `/v1/appointments/${first.id}/treatment-record`, { token, body: { summary: '20 units' } });
    await call('PATCH', `/v1/appointments/${first.id}/status`, { token, body: { status: 'completed' } });
    events = await step();
    expect(events.map((event) => [event.type, event.data.previous?.status])).toEqual([
      ['appointment.status_changed', 'scheduled'],
      ['appointment.status_changed', 'confirmed'],
      ['appointment.status_changed', 'checked_in'],
      ['appointment.status_changed', 'in_progress'],
      ['appointment.completed', 'in_progress'],
    ]);
    // The completion moved the client's visit statistics: no client.updated for that.

    // A cancel.
    const second = await book(localTimeInDays(7, '10:00'));
    await call('POST', `/v1/appointments/${second.id}/cancel`, { token, body: { reason: 'sick' } });
    events = await step();
    expect(summary(events)).toEqual([
      `appointment.created ${second.id.slice(0, 8)}`,
      `appointment.status_changed ${second.id.slice(0, 8)}`,
      `appointment.cancelled ${second.id.slice(0, 8)}`,
    ]);
    expect(events[2].data.object).toMatchObject({ status: 'cancelled', cancellation_reason: 'sick' });
    expect(events[2].data.previous).toMatchObject({ status: 'scheduled', cancellation_reason: null });

    // A payment and a consent.
    const payment = (
      await call('POST', '/v1/payments', {
        token,
        body: { client_id: client.id, appointment_id: first.id, amount_cents: 25000, method: 'card' },
      })
    ).body.data;
    const consent = (
      await call('POST', `/v1/clients/${client.id}/consents`, {
        token,
        body: { form_name: 'Neurotoxin consent', signed_at: new Date().toISOString() },
      })
    ).body.data;
    events = await step();
    expect(events.map((event) => [event.type, event.data.object])).toEqual([
      ['payment.received', payment],
      ['consent.signed', consent],
    ]);

    // A client edit.
    await call('PATCH', `/v1/clients/${client.id}`, { token, body: { phone: '+1 555 010 0199', tags: ['vip'] } });
    events = await step();
    expect(events.map((event) => [event.type, event.data.previous])).toEqual([
      ['client.updated', { phone: client.phone, tags: [] }],
    ]);

    // Stock: the crossing to the threshold emits once; a sale that stays low emits nothing; the
    // product, SKU claim and ledger entries emit nothing.
    const product = await makeProduct(practice, { quantity_on_hand: 7, low_stock_threshold: 5 });
    const adjust = (delta: number) =>
      call('POST', `/v1/products/${product.id}/stock-adjustments`, { token, body: { delta, reason: 'sale' } });
    expect((await adjust(-1)).status).toBe(201);
    expect((await adjust(-1)).status).toBe(201);
    expect((await adjust(-1)).status).toBe(201);
    events = await step();
    expect(events.map((event) => event.type)).toEqual(['product.low_stock']);
    expect(events[0].data).toEqual({
      object: {
        ...product,
        quantity_on_hand: 5,
        low_stock: true,
        version: product.version + 2,
        updated_at: events[0].created_at,
      },
      previous: { low_stock: false },
    });

    // Deleting an appointment: appointment.deleted, its object as it was before, no previous (so a
    // calendar kept from webhooks drops it); its claims and bookkeeping emit nothing.
    const doomed = await book(localTimeInDays(9, '10:00'));
    expect((await call('DELETE', `/v1/appointments/${doomed.id}`, { token })).status).toBe(200);
    events = await step();
    expect(events.map((event) => event.type)).toEqual(['appointment.created', 'appointment.deleted']);
    expect(events[1].data).toEqual({ object: doomed });
    expect(Date.parse(events[1].created_at)).toBeGreaterThanOrEqual(Date.parse(doomed.created_at) - 60_000);

    // Deleting the client: client.deleted (anonymised, no previous) and its future appointment cancelled.
    const third = await book(localTimeInDays(8, '10:00'));
    expect((await call('DELETE', `/v1/clients/${client.id}`, { token })).status).toBe(200);
    events = await step();
    expect(events.map((event) => event.type)).toEqual([
      'appointment.created',
      'client.deleted',
      'appointment.status_changed',
      'appointment.cancelled',
    ]);
    const deleted = events[1];
    expect(deleted.data).not.toHaveProperty('previous');
    expect(deleted.data.object).toMatchObject({
      id: client.id,
      first_name: 'Deleted',
      last_name: 'Client',
      email: null,
      phone: null,
    });
    expect(JSON.stringify(deleted)).not.toContain(String(client.email));
    expect(events[3].data.object).toMatchObject({
      id: third.id,
      status: 'cancelled',
      cancellation_reason: 'client_deleted',
    });

    // Across all of them: public objects only, unique evt_ ids, UTC times.
    const all = ofPractice(tap.published, medspaId);
    expect(all).toHaveLength(22);
    expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
    for (const event of all) {
      expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(event.created_at).toBe(new Date(event.created_at).toISOString());
      const schema = schemaFor[event.type.split('.')[0]];
      expect(Object.keys(event.data.object).sort()).toEqual(Object.keys(schema.shape).sort());
      for (const name of STORAGE) expect(event.data.object).not.toHaveProperty(name);
    }

    // Replaying the whole stream yields the same events under the same ids.
    const replayed = ofPractice(await tap.replay(tap.seen), medspaId);
    expect(replayed).toEqual(all);
  });
});
