import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { appointmentCodec, clientPlanCodec, planLedgerCodec, reminderCodec } from '../../lib/db/codecs';
import type { ClientPlanRecord, PlanLedgerRecord } from '../../lib/domain/records';
import { ClientPlanEvent } from '../../lib/schemas/plans';
import { NO_MONEY_TERMS } from '../../lib/domain/deposits';
import { manageTokenGeneration, manageTokenValid } from '../../lib/crypto/manage-token';

const appointmentItem = appointmentCodec.toItem;
const reminderItem = (
  medspaId: string,
  reminder: { event_id: string; appointment_id: string; requested_at: string; requested_by: string },
  appointment: any,
) => reminderCodec.toItem({ medspa_id: medspaId, ...reminder, appointment });
import {
  auditKey,
  claimKey,
  clientSearchKey,
  consentKey,
  entityKey,
  lowStockEventKey,
  practiceKey,
  productSkuKey,
  reminderDueKey,
  reminderSentKey,
  stockLedgerKey,
  treatmentRecordKey,
  type Key,
} from '../../lib/db/keys';
import { eventsFromRecord, reminderToArm } from '../../lib/events/from-record';
import type { StreamRecord } from '../../lib/db/stream';
import { EVENT_TYPES } from '../../lib/events/types';
import { Appointment } from '../../lib/schemas/appointments';
import { Consent } from '../../lib/schemas/clients';
import { Payment } from '../../lib/schemas/payments';
import { EVENT_ENVELOPES } from '../../lib/schemas/events';
import { Product } from '../../lib/schemas/products';
import { Client } from '../../lib/schemas/resources';

// Hand-built stream records in DynamoDB's wire format, as the stream delivers them. Times are
// relative to now; nothing here touches DynamoDB.

const NOW = new Date();
const iso = (minutesFromNow: number) => new Date(NOW.getTime() + minutesFromNow * 60_000).toISOString();
const context = { now: NOW };
const MID = randomUUID();

type Item = Record<string, unknown>;

function record(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  change: { keys: Key; oldItem?: Item; newItem?: Item },
  eventID: string = randomUUID(),
): StreamRecord {
  const image = (item?: Item) =>
    item ? marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: false }) : undefined;
  return {
    eventID,
    eventName,
    dynamodb: {
      Keys: marshall({ pk: change.keys.pk, sk: change.keys.sk }),
      OldImage: image(change.oldItem),
      NewImage: image(change.newItem),
      SequenceNumber: '000000000000000000001',
      // Lambda's shape: epoch seconds.
      ApproximateCreationDateTime: Math.floor(NOW.getTime() / 1000),
    },
  };
}
const keyOf = (item: Item): Key => ({ pk: item.pk as string, sk: item.sk as string });
const insert = (item: Item, eventID?: string) => record('INSERT', { keys: keyOf(item), newItem: item }, eventID);
const modify = (oldItem: Item, newItem: Item, eventID?: string) =>
  record('MODIFY', { keys: keyOf(newItem), oldItem, newItem }, eventID);

function makeAppointment(overrides: Partial<Appointment> = {}): Appointment {
  const scheduledAt = iso(3 * 24 * 60);
  return {
    id: randomUUID(),
    medspa_id: MID,
    client_id: randomUUID(),
    service_id: randomUUID(),
    provider_id: randomUUID(),
    room_id: randomUUID(),
    equipment_id: null,
    scheduled_at: scheduledAt,
    end_at: new Date(Date.parse(scheduledAt) + 3_600_000).toISOString(),
    duration_minutes: 60,
    buffer_before_minutes: 0,
    buffer_after_minutes: 0,
    status: 'scheduled',
    notes: 'first visit',
    internal_notes: 'prefers mornings',
    source: 'manual',
    price_cents: 25000,
    cancelled_at: null,
    cancellation_reason: null,
    ...NO_MONEY_TERMS,
    version: 1,
    created_at: iso(-10),
    updated_at: iso(-10),
    ...overrides,
  };
}

/** The next version of an appointment item as the data layer writes it (index keys follow scheduled_at). */
function changed(before: Appointment, changes: Partial<Appointment>, minutesLater = 1): Item {
  return appointmentItem({ ...before, ...changes, version: before.version + 1, updated_at: iso(minutesLater) });
}

const clientRecord = (overrides: Item = {}) => {
  const id = randomUUID();
  return {
    ...entityKey(MID, 'CLIENT', id),
    entity: 'CLIENT',
    id,
    medspa_id: MID,
    first_name: 'Casey',
    last_name: 'Example',
    email: 'casey@example.com',
    phone: '+1 555 010 0100',
    date_of_birth: '1990-04-01',
    address: {
      line1: '1 Main St',
      line2: null,
      city: 'Springfield',
      region: 'IL',
      postal_code: '62701',
      country: 'US',
    },
    membership_status: 'active',
    membership_tier: 'gold',
    tags: ['vip'],
    notes: 'allergic to latex',
    last_visit_at: null,
    total_spent_cents: 0,
    visit_count: 0,
    no_show_count: 0,
    version: 1,
    created_at: iso(-5),
    updated_at: iso(-5),
    ...overrides,
  };
};

const publicKeys = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape).sort();

describe('appointments', () => {
  it('an insert is appointment.created with the public appointment, a deterministic evt_ id and the change time', () => {
    // Booked from a hold in a series against a plan, so it has every public field (`hold_id`, `series_id`, `client_plan_id` are only on those, `waitlist_entry_id` on a waitlist offer's).
    const appointment = makeAppointment({
      hold_id: randomUUID(),
      series_id: randomUUID(),
      client_plan_id: randomUUID(),
      waitlist_entry_id: randomUUID(),
    });
    const source = insert(appointmentItem(appointment), 'evt-source-1');
    const [event, ...rest] = eventsFromRecord(source, context);
    expect(rest).toEqual([]);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'appointment.created',
      created_at: appointment.updated_at,
      medspa_id: MID,
      data: { object: appointment },
    });
    // No storage attribute leaks: exactly the response schema's fields.
    expect(Object.keys(event.data.object).sort()).toEqual(publicKeys(Appointment));
    // A replayed record yields the same id; another record another id.
    expect(eventsFromRecord(source, context)[0].id).toBe(event.id);
    expect(eventsFromRecord(insert(appointmentItem(appointment), 'evt-source-2'), context)[0].id).not.toBe(event.id);
  });

  it("an online booking's appointment.created carries a manage token for it, valid until it ends", () => {
    const appointment = makeAppointment({ source: 'online' });
    const [event] = eventsFromRecord(insert(appointmentItem(appointment)), context);
    const token = (event.data as { manage_token?: string }).manage_token!;
    expect(manageTokenValid(MID, appointment.id, token, NOW)).toBe(true);
    expect(manageTokenValid(MID, appointment.id, token, new Date(Date.parse(appointment.end_at) + 1000))).toBe(false);
    expect(manageTokenValid(MID, randomUUID(), token, NOW)).toBe(false);
    expect(EVENT_ENVELOPES['appointment.created'].parse(event)).toEqual(event);
    // Other sources carry none.
    const [manual] = eventsFromRecord(insert(appointmentItem(makeAppointment({ source: 'manual' }))), context);
    expect(manual.data).not.toHaveProperty('manage_token');
  });

  it('a reschedule is ONE appointment.updated whose previous holds the old values of the changed fields', () => {
    const before = makeAppointment();
    const later = iso(4 * 24 * 60);
    const after = changed(before, {
      scheduled_at: later,
      end_at: new Date(Date.parse(later) + 5_400_000).toISOString(),
      duration_minutes: 90,
    });
    const events = eventsFromRecord(modify(appointmentItem(before), after), context);
    expect(events.map((event) => event.type)).toEqual(['appointment.updated']);
    expect(events[0].data.previous).toEqual({
      scheduled_at: before.scheduled_at,
      end_at: before.end_at,
      duration_minutes: 60,
    });
    expect(events[0].data.object).toMatchObject({ scheduled_at: later, duration_minutes: 90, version: 2 });
    expect(events[0].created_at).toBe(after.updated_at);
  });

  it("a public reschedule's appointment.updated carries the new manage token (and no storage field); a staff move none", () => {
    const before = makeAppointment({ source: 'online' });
    const later = iso(4 * 24 * 60);
    const moved = { scheduled_at: later, end_at: new Date(Date.parse(later) + 3_600_000).toISOString() };
    const [event] = eventsFromRecord(
      modify(appointmentItem(before), { ...changed(before, moved), manage_generation: 1 }),
      context,
    );
    expect(event.type).toBe('appointment.updated');
    const token = (event.data as { manage_token?: string }).manage_token!;
    expect(manageTokenGeneration(MID, before.id, token, NOW)).toBe(1);
    expect(event.data.object).not.toHaveProperty('manage_generation');
    expect(event.data.previous).not.toHaveProperty('manage_generation');
    expect(EVENT_ENVELOPES['appointment.updated'].parse(event)).toEqual(event);
    const [byStaff] = eventsFromRecord(modify(appointmentItem(before), changed(before, moved)), context);
    expect(byStaff.data).not.toHaveProperty('manage_token');
  });

  it('an edit of notes or price is appointment.updated with just those fields in previous', () => {
    const before = makeAppointment();
    const events = eventsFromRecord(
      modify(appointmentItem(before), changed(before, { notes: null, price_cents: 20000 })),
      context,
    );
    expect(events.map((event) => [event.type, event.data.previous])).toEqual([
      ['appointment.updated', { notes: 'first visit', price_cents: 25000 }],
    ]);
  });

  it('a status move is status_changed only, with previous.status', () => {
    const before = makeAppointment();
    const events = eventsFromRecord(modify(appointmentItem(before), changed(before, { status: 'confirmed' })), context);
    expect(events.map((event) => [event.type, event.data.previous])).toEqual([
      ['appointment.status_changed', { status: 'scheduled' }],
    ]);
  });

  it('a completion is status_changed + completed, with distinct ids', () => {
    const before = makeAppointment({ status: 'in_progress' });
    const events = eventsFromRecord(modify(appointmentItem(before), changed(before, { status: 'completed' })), context);
    expect(events.map((event) => event.type)).toEqual(['appointment.status_changed', 'appointment.completed']);
    expect(
      events.every(
        (event) => event.data.object.status === 'completed' && event.data.previous?.status === 'in_progress',
      ),
    ).toBe(true);
    expect(new Set(events.map((event) => event.id)).size).toBe(2);
  });

  it('a cancel is status_changed + cancelled, previous holding the old status and cancel fields', () => {
    const before = makeAppointment({ status: 'confirmed' });
    const at = iso(1);
    const events = eventsFromRecord(
      modify(
        appointmentItem(before),
        changed(before, { status: 'cancelled', cancelled_at: at, cancellation_reason: 'client_deleted' }),
      ),
      context,
    );
    expect(events.map((event) => event.type)).toEqual(['appointment.status_changed', 'appointment.cancelled']);
    expect(events[1].data).toEqual({
      object: expect.objectContaining({ status: 'cancelled', cancelled_at: at, cancellation_reason: 'client_deleted' }),
      previous: { status: 'confirmed', cancelled_at: null, cancellation_reason: null },
    });
  });

  it('a no-show assessing a fee is status_changed + fee_assessed (also from an item stored before fees), without previous', () => {
    const before = makeAppointment({ status: 'checked_in' });
    const fee = {
      kind: 'no_show' as const,
      amount_cents: 5000,
      deposit_applied_cents: 0,
      due_cents: 5000,
      status: 'due' as const,
      assessed_at: iso(1),
      waived_at: null,
      waive_reason: null,
    };
    const { fees: _fees, ...oldItem } = appointmentItem(before);
    const events = eventsFromRecord(modify(oldItem, changed(before, { status: 'no_show', fees: [fee] })), context);
    expect(events.map((event) => event.type)).toEqual(['appointment.status_changed', 'appointment.fee_assessed']);
    expect(events[1].data).toEqual({ object: expect.objectContaining({ status: 'no_show', fees: [fee] }) });
  });

  it('a no-show is status_changed only', () => {
    const before = makeAppointment({ status: 'checked_in' });
    const events = eventsFromRecord(modify(appointmentItem(before), changed(before, { status: 'no_show' })), context);
    expect(events.map((event) => event.type)).toEqual(['appointment.status_changed']);
  });

  it('a hard delete is appointment.deleted with the appointment as it was (no previous); a write that changes nothing public emits nothing', () => {
    const appointment = makeAppointment();
    const item = appointmentItem(appointment);
    const deleted = eventsFromRecord(record('REMOVE', { keys: keyOf(item), oldItem: item }), context);
    expect(deleted.map((event) => [event.type, event.data])).toEqual([
      ['appointment.deleted', { object: appointment }],
    ]);
    expect(eventsFromRecord(modify(item, changed(appointment, {})), context)).toEqual([]);
  });

  it('a malformed appointment throws, naming ids and paths but no values', () => {
    const item = { ...appointmentItem(makeAppointment()), status: undefined, notes: 'secret@example.com' };
    expect(() => eventsFromRecord(insert(item, 'bad-record'), context)).toThrow(/bad-record.*status/);
    expect(() => eventsFromRecord(insert(item, 'bad-record'), context)).not.toThrow(/secret/);
  });
});

describe('reminders', () => {
  it('a reminder item is appointment.reminder under the event id it stores (the one the API answered)', () => {
    const appointment = makeAppointment();
    const requestedAt = iso(0);
    const item = reminderItem(
      MID,
      {
        event_id: 'evt_0123456789abcdef0123456789abcdef',
        appointment_id: appointment.id,
        requested_at: requestedAt,
        requested_by: 'cred',
      },
      appointment,
    );
    const events = eventsFromRecord(insert(item), context);
    expect(events).toEqual([
      {
        id: 'evt_0123456789abcdef0123456789abcdef',
        type: 'appointment.reminder',
        created_at: requestedAt,
        medspa_id: MID,
        data: { object: appointment },
      },
    ]);
  });

  it('reminderToArm: an active appointment created or moved arms its time; other changes arm nothing', () => {
    const appointment = makeAppointment();
    const item = appointmentItem(appointment);
    expect(reminderToArm(insert(item))).toEqual({
      medspaId: MID,
      appointmentId: appointment.id,
      scheduledAt: appointment.scheduled_at,
      endAt: appointment.end_at,
    });
    const later = iso(5 * 24 * 60);
    expect(reminderToArm(modify(item, changed(appointment, { scheduled_at: later })))?.scheduledAt).toBe(later);
    expect(reminderToArm(modify(item, changed(appointment, { notes: 'x' })))).toBeNull();
    expect(reminderToArm(modify(item, changed(appointment, { status: 'cancelled' })))).toBeNull();
    expect(reminderToArm(insert(clientRecord()))).toBeNull();
    expect(reminderToArm(record('REMOVE', { keys: keyOf(item), oldItem: item }))).toBeNull();
  });
});

describe('clients', () => {
  it('an insert is client.created with the public client (health score, no storage or bookkeeping fields)', () => {
    const item = clientRecord();
    const [event] = eventsFromRecord(insert(item), context);
    expect(event.type).toBe('client.created');
    expect(Object.keys(event.data.object).sort()).toEqual(publicKeys(Client));
    expect(event.data.object).toMatchObject({
      id: item.id,
      email: 'casey@example.com',
      health_score: expect.any(Number),
    });
    expect(event.data.object).not.toHaveProperty('no_show_count');
  });

  it('a change of the client is client.updated with the old values of what changed', () => {
    const before = clientRecord();
    const after = { ...before, email: 'new@example.com', tags: ['vip', 'laser'], version: 2, updated_at: iso(1) };
    const events = eventsFromRecord(modify(before, after), context);
    expect(events.map((event) => [event.type, event.data.previous])).toEqual([
      ['client.updated', { email: 'casey@example.com', tags: ['vip'] }],
    ]);
  });

  it("a membership plan's move of the membership fields is client.updated, as a PATCH of them would be", () => {
    // Stored before memberships followed plans: no marker (read as null).
    const before = clientRecord({ membership_status: 'none', membership_tier: null });
    const plan = '7f8e9d0c-1b2a-4c3d-9e4f-5a6b7c8d9e17';
    const after = {
      ...before,
      membership_status: 'active',
      membership_tier: 'Glow Gold',
      membership_plan_id: plan,
      version: 2,
      updated_at: iso(1),
    };
    const [event] = eventsFromRecord(modify(before, after), context);
    expect([event.type, event.data.previous]).toEqual([
      'client.updated',
      { membership_status: 'none', membership_tier: null, membership_plan_id: null },
    ]);
    expect(event.data.object).toMatchObject({ membership_plan_id: plan });
  });

  it('statistics moved by a completion or payment (no version bump) emit no client.updated', () => {
    const before = clientRecord();
    const after = { ...before, visit_count: 1, last_visit_at: iso(0), total_spent_cents: 5000 };
    expect(eventsFromRecord(modify(before, after), context)).toEqual([]);
  });

  it('the soft delete is client.deleted with the anonymised client and no previous; a deleted client emits nothing more', () => {
    const before = clientRecord();
    const deletedAt = iso(1);
    const after = {
      ...before,
      first_name: 'Deleted',
      last_name: 'Client',
      email: null,
      phone: null,
      date_of_birth: null,
      address: null,
      notes: null,
      tags: [],
      deleted_at: deletedAt,
      version: 2,
      updated_at: deletedAt,
    };
    const events = eventsFromRecord(modify(before, after), context);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'client.deleted',
      created_at: deletedAt,
      data: { object: { id: before.id, first_name: 'Deleted', email: null } },
    });
    expect(events[0].data).not.toHaveProperty('previous');
    expect(JSON.stringify(events[0])).not.toMatch(/casey@example.com|latex|deleted_at/);
    expect(eventsFromRecord(modify(after, { ...after, total_spent_cents: 100 }), context)).toEqual([]);
  });
});

describe('payments, consents, low stock', () => {
  it('a payment insert is payment.received with the public payment', () => {
    const id = randomUUID();
    const clientId = randomUUID();
    const createdAt = iso(0);
    const payment = {
      id,
      medspa_id: MID,
      client_id: clientId,
      appointment_id: null,
      amount_cents: 5000,
      currency: 'USD',
      method: 'card',
      note: null,
      version: 1,
      created_at: createdAt,
    };
    const item = {
      ...entityKey(MID, 'PAYMENT', id),
      gsi1pk: 'x',
      gsi1sk: 'y',
      gsi2pk: 'z',
      gsi2sk: 'w',
      entity: 'PAYMENT',
      ...payment,
    };
    const events = eventsFromRecord(insert(item), context);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'payment.received',
        created_at: createdAt,
        medspa_id: MID,
        // Stored without kind and reference (before they existed): read as a plain payment.
        data: { object: { ...payment, kind: 'payment', reference: null } },
      },
    ]);
    expect(Object.keys(events[0].data.object).sort()).toEqual(publicKeys(Payment));
  });

  it('a consent insert is consent.signed', () => {
    const consent = {
      id: randomUUID(),
      medspa_id: MID,
      client_id: randomUUID(),
      form_name: 'Botox consent',
      signed_at: iso(-1),
      appointment_id: null,
      version: 1,
      created_at: iso(0),
      updated_at: iso(0),
    };
    const item = {
      ...consentKey(MID, consent.client_id, consent.signed_at, consent.id),
      entity: 'CONSENT',
      ...consent,
    };
    const events = eventsFromRecord(insert(item), context);
    // A consent stored before forms reads with no submission.
    expect(events.map((event) => [event.type, event.data.object])).toEqual([
      ['consent.signed', { ...consent, form_submission_id: null }],
    ]);
    expect(Object.keys(events[0].data.object).sort()).toEqual(publicKeys(Consent));
  });

  it('a low-stock crossing is product.low_stock with the public product as of the crossing', () => {
    const productId = randomUUID();
    const adjustmentId = randomUUID();
    const at = iso(0);
    const stored = {
      id: productId,
      medspa_id: MID,
      name: 'Serum',
      sku: 'SR-1',
      brand: null,
      category: null,
      price_cents: 4800,
      cost_cents: null,
      quantity_on_hand: 2,
      low_stock_threshold: 3,
      headroom: -1,
      active: true,
      version: 5,
      created_at: iso(-60),
      updated_at: at,
    };
    const item = {
      ...lowStockEventKey(MID, at, productId, adjustmentId),
      entity: 'LOW_STOCK_EVENT',
      medspa_id: MID,
      product_id: productId,
      adjustment_id: adjustmentId,
      quantity_on_hand: 2,
      low_stock_threshold: 3,
      occurred_at: at,
      product: stored,
    };
    const events = eventsFromRecord(insert(item), context);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'product.low_stock',
      created_at: at,
      data: { object: { id: productId, quantity_on_hand: 2, low_stock: true }, previous: { low_stock: false } },
    });
    expect(Object.keys(events[0].data.object).sort()).toEqual(publicKeys(Product));
  });

  it('payments, consents and crossings are never re-emitted on a later change or removal', () => {
    const consent = {
      id: randomUUID(),
      medspa_id: MID,
      client_id: randomUUID(),
      form_name: 'f',
      signed_at: iso(-1),
      appointment_id: null,
      version: 1,
      created_at: iso(0),
      updated_at: iso(0),
    };
    const item = {
      ...consentKey(MID, consent.client_id, consent.signed_at, consent.id),
      entity: 'CONSENT',
      ...consent,
    };
    expect(eventsFromRecord(modify(item, { ...item, version: 2 }), context)).toEqual([]);
    expect(eventsFromRecord(record('REMOVE', { keys: keyOf(item), oldItem: item }), context)).toEqual([]);
  });
});

describe('everything else emits nothing', () => {
  const appointmentId = randomUUID();
  const clientId = randomUUID();
  const productId = randomUUID();
  const scheduledAt = iso(60);
  const bookkeeping: [string, Item][] = [
    [
      'time claim bucket',
      {
        ...claimKey(MID, 'PROVIDER', randomUUID(), scheduledAt.slice(0, 13)),
        entity: 'CLAIM',
        medspa_id: MID,
        entries: {},
        version: 1,
      },
    ],
    [
      'client search term',
      {
        ...clientSearchKey(MID, 'casey', clientId),
        entity: 'CLIENT_SEARCH',
        client_id: clientId,
        membership_status: 'none',
      },
    ],
    [
      'audit entry',
      { ...auditKey(MID, iso(0), randomUUID()), entity: 'AUDIT', operation: 'createClient', status: 201 },
    ],
    [
      'SKU claim',
      { ...productSkuKey(MID, 'sr-1'), entity: 'PRODUCT_SKU', medspa_id: MID, product_id: productId, sku: 'SR-1' },
    ],
    [
      'ledger entry',
      {
        ...stockLedgerKey(MID, productId, iso(0), randomUUID()),
        entity: 'STOCK_ADJUSTMENT',
        medspa_id: MID,
        delta: -1,
      },
    ],
    [
      'treatment record',
      { ...treatmentRecordKey(MID, appointmentId), entity: 'TREATMENT', appointment_id: appointmentId, summary: 'x' },
    ],
    [
      'reminder due',
      {
        ...reminderDueKey(scheduledAt.slice(0, 16), MID, appointmentId, scheduledAt),
        entity: 'REMINDER_DUE',
        medspa_id: MID,
      },
    ],
    [
      'reminder sent marker',
      { ...reminderSentKey(MID, appointmentId, scheduledAt), entity: 'REMINDER_SENT', medspa_id: MID },
    ],
    [
      'product',
      { ...entityKey(MID, 'PRODUCT', productId), entity: 'PRODUCT', id: productId, medspa_id: MID, name: 'Serum' },
    ],
    ['practice', { ...practiceKey(MID), entity: 'PRACTICE', id: MID, name: 'Glow' }],
    ['idempotency record', { pk: `P#${MID}#IDEMPOTENCY#cred`, sk: 'key-1', entity: 'IDEMPOTENCY', status: 201 }],
    ['rate-limit bucket', { pk: `RATE#cred`, sk: 'WINDOW', tokens: 3 }],
    ['untyped item', { pk: 'X', sk: 'Y' }],
  ];

  it.each(bookkeeping)('%s: insert, modify and remove', (_name, item) => {
    expect(eventsFromRecord(insert(item), context)).toEqual([]);
    expect(eventsFromRecord(modify(item, { ...item, version: 9 }), context)).toEqual([]);
    expect(eventsFromRecord(record('REMOVE', { keys: keyOf(item), oldItem: item }), context)).toEqual([]);
  });

  it('an item claiming a resource entity under another key is not that resource', () => {
    const appointment = makeAppointment();
    const spoof = { ...appointmentItem(appointment), ...claimKey(MID, 'ROOM', randomUUID(), '2030-01-01T10') };
    expect(eventsFromRecord(insert(spoof), context)).toEqual([]);
    const client = clientRecord();
    expect(eventsFromRecord(insert({ ...client, medspa_id: randomUUID() }), context)).toEqual([]);
  });

  it('records that are not item changes emit nothing', () => {
    expect(eventsFromRecord({ eventName: 'INSERT' }, context)).toEqual([]);
    expect(eventsFromRecord({ eventID: 'x', eventName: 'TTL' }, context)).toEqual([]);
  });
});

describe('record shapes', () => {
  it('takes the Streams API shape too (a Date change time)', () => {
    const appointment = makeAppointment();
    const source = insert(appointmentItem(appointment));
    const sdkShape: StreamRecord = {
      ...source,
      dynamodb: { ...source.dynamodb, ApproximateCreationDateTime: new Date(NOW) },
    };
    expect(eventsFromRecord(sdkShape, context)).toEqual(eventsFromRecord(source, context));
  });

  it('every event type it produces is a contract event type', () => {
    const appointment = makeAppointment({ status: 'in_progress' });
    const types = [
      ...eventsFromRecord(insert(appointmentItem(appointment)), context),
      ...eventsFromRecord(modify(appointmentItem(appointment), changed(appointment, { status: 'completed' })), context),
      ...eventsFromRecord(insert(clientRecord()), context),
    ].map((event) => event.type);
    expect(types.every((type) => (EVENT_TYPES as readonly string[]).includes(type))).toBe(true);
  });
});

describe('wire format quirks', () => {
  it('an empty map the Streams API client deserialised as {} decodes as an empty map', () => {
    const appointment = makeAppointment();
    const source = insert(appointmentItem(appointment));
    const image = { ...source.dynamodb!.NewImage!, extra: {}, nested: { M: { inner: {} } } };
    const quirky: StreamRecord = { ...source, dynamodb: { ...source.dynamodb, NewImage: image } };
    expect(eventsFromRecord(quirky, context)).toEqual(eventsFromRecord(source, context));
    const bucket = { ...claimKey(MID, 'ROOM', randomUUID(), '2030-01-01T10'), entity: 'CLAIM', entries: {} };
    const emptied = modify(bucket, bucket);
    expect(
      eventsFromRecord(
        { ...emptied, dynamodb: { ...emptied.dynamodb, NewImage: { ...emptied.dynamodb!.NewImage!, entries: {} } } },
        context,
      ),
    ).toEqual([]);
  });
});

describe('the envelopes the OpenAPI document publishes (its webhooks section)', () => {
  it('fit the events the stream produces: created, updated, status changes, completion, cancel, clients', () => {
    const appointment = makeAppointment();
    const client = clientRecord();
    const records = [
      insert(appointmentItem(appointment)),
      modify(appointmentItem(appointment), changed(appointment, { notes: 'moved', scheduled_at: iso(4 * 24 * 60) })),
      modify(appointmentItem(appointment), changed(appointment, { status: 'confirmed' })),
      modify(
        appointmentItem({ ...appointment, status: 'in_progress' }),
        changed({ ...appointment, status: 'in_progress' }, { status: 'completed' }),
      ),
      modify(
        appointmentItem(appointment),
        changed(appointment, { status: 'cancelled', cancelled_at: iso(1), cancellation_reason: 'ill' }),
      ),
      insert(client),
      modify(client, { ...client, first_name: 'Kasey', version: 2, updated_at: iso(2) }),
    ];
    const events = records.flatMap((source) => eventsFromRecord(source, context));
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set([
        'appointment.created',
        'appointment.updated',
        'appointment.status_changed',
        'appointment.completed',
        'appointment.cancelled',
        'client.created',
        'client.updated',
      ]),
    );
    for (const event of events) {
      const parsed = EVENT_ENVELOPES[event.type].safeParse(event);
      expect(parsed.success, `${event.type}: ${parsed.error?.message}`).toBe(true);
    }
  });
});

describe('client plans and their ledger (section 12)', () => {
  const plan: ClientPlanRecord = {
    id: randomUUID(),
    medspa_id: MID,
    client_id: randomUUID(),
    plan_id: randomUUID(),
    kind: 'membership',
    name: 'Glow club',
    price_cents: 9900,
    service_ids: [randomUUID()],
    status: 'active',
    starts_on: '2026-12-01',
    current_term: { starts_on: '2026-12-01', ends_on: '2026-12-31' },
    expires_on: null,
    cancel_reason: null,
    cancel_at_term_end: false,
    version: 1,
    created_at: iso(-10),
    updated_at: iso(-10),
  };
  const later = (changes: Partial<ClientPlanRecord>) =>
    clientPlanCodec.toItem({ ...plan, ...changes, version: 2, updated_at: iso(-1) });
  const typesOf = (source: StreamRecord) => eventsFromRecord(source, context).map((e) => [e.type, e.data.previous]);

  it('a sale is client_plan.sold; a status move or a new term its own event with previous; other changes none', () => {
    const [sold] = eventsFromRecord(insert(clientPlanCodec.toItem(plan)), context);
    expect(sold).toMatchObject({ type: 'client_plan.sold', created_at: plan.updated_at });
    expect(Object.keys(sold.data.object).sort()).toEqual(Object.keys(ClientPlanEvent.shape).sort());
    const before = clientPlanCodec.toItem(plan);
    expect(typesOf(modify(before, later({ status: 'paused' })))).toEqual([
      ['client_plan.paused', { status: 'active' }],
    ]);
    expect(typesOf(modify(clientPlanCodec.toItem({ ...plan, status: 'paused' }), later({})))).toEqual([
      ['client_plan.resumed', { status: 'paused' }],
    ]);
    expect(typesOf(modify(before, later({ status: 'cancelled' })))[0][0]).toBe('client_plan.cancelled');
    expect(typesOf(modify(before, later({ status: 'expired' })))[0][0]).toBe('client_plan.expired');
    const term = { starts_on: '2027-01-01', ends_on: '2027-01-31' };
    expect(typesOf(modify(before, later({ current_term: term })))).toEqual([
      ['client_plan.renewed', { current_term: plan.current_term }],
    ]);
    expect(typesOf(modify(before, later({ cancel_at_term_end: true })))).toEqual([]);
  });

  it('a use is entitlement.used with its ledger entry; reserves and releases send nothing', () => {
    const entry: PlanLedgerRecord = {
      id: randomUUID(),
      medspa_id: MID,
      client_plan_id: plan.id,
      service_id: plan.service_ids[0],
      kind: 'use',
      quantity: 1,
      appointment_id: randomUUID(),
      reason: null,
      balance_after: { reserved: 0, used: 1, remaining: 1 },
      created_at: iso(-1),
    };
    const [used, ...rest] = eventsFromRecord(insert(planLedgerCodec.toItem(entry)), context);
    expect(rest).toEqual([]);
    expect(used.type).toBe('entitlement.used');
    expect(used.data.object).toEqual({
      id: entry.id,
      client_plan_id: plan.id,
      service_id: entry.service_id,
      kind: 'use',
      quantity: 1,
      appointment_id: entry.appointment_id,
      balance_after: entry.balance_after,
      created_at: entry.created_at,
    });
    for (const kind of ['reserve', 'release'] as const)
      expect(eventsFromRecord(insert(planLedgerCodec.toItem({ ...entry, kind })), context)).toEqual([]);
  });
});
