import { describe, expect, it } from 'vitest';
import * as C from '../../lib/db/codecs';
import { isDataFailure } from '../../lib/db/failure';
import type { AppointmentRecord, DeliveryRecord } from '../../lib/domain/records';
import { NO_MONEY_TERMS } from '../../lib/domain/deposits';

const MID = '11111111-1111-4111-8111-111111111111';
const appointment: AppointmentRecord = {
  id: '22222222-2222-4222-8222-222222222222',
  medspa_id: MID,
  client_id: '33333333-3333-4333-8333-333333333333',
  service_id: '44444444-4444-4444-8444-444444444444',
  provider_id: '55555555-5555-4555-8555-555555555555',
  room_id: null,
  equipment_id: null,
  scheduled_at: '2026-12-01T15:00:00.000Z',
  end_at: '2026-12-01T16:00:00.000Z',
  duration_minutes: 60,
  buffer_before_minutes: 0,
  buffer_after_minutes: 0,
  status: 'scheduled',
  notes: 'Allergic to lidocaine',
  internal_notes: null,
  source: 'manual',
  price_cents: 45000,
  cancelled_at: null,
  cancellation_reason: null,
  ...NO_MONEY_TERMS,
  version: 1,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};

/** The failure a read throws, or null. */
function failureOf(read: () => unknown) {
  try {
    read();
    return null;
  } catch (error) {
    if (!isDataFailure(error, 'corrupt')) throw error;
    return error;
  }
}

describe('codecs decode what they read', () => {
  it('an item as written reads back as its record, without keys, index keys or tag', () => {
    const item = C.appointmentCodec.toItem(appointment);
    expect(item).toMatchObject({ pk: expect.any(String), gsi1pk: expect.any(String), entity: 'APPOINTMENT' });
    expect(C.appointmentCodec.fromItem(item)).toEqual(appointment);
    expect(C.appointmentCodec.fromItem(undefined)).toBeNull();
  });

  it('an appointment or service stored before buffers reads with none (contract section 11)', () => {
    const { buffer_before_minutes: _b, buffer_after_minutes: _a, ...old } = C.appointmentCodec.toItem(appointment);
    expect(C.appointmentCodec.fromItem(old)).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
    const service = C.serviceCodec.toItem({
      id: appointment.service_id,
      medspa_id: MID,
      name: 'Botox',
      description: null,
      category: null,
      price_cents: 100,
      duration_minutes: 30,
      buffer_before_minutes: 5,
      buffer_after_minutes: 10,
      deposit: { type: 'none', value: 0 },
      active: true,
      provider_ids: [],
      required_form_template_ids: [],
      version: 1,
      created_at: appointment.created_at,
      updated_at: appointment.updated_at,
    });
    const { buffer_before_minutes: _sb, buffer_after_minutes: _sa, ...oldService } = service;
    expect(C.serviceCodec.fromItem(service)).toMatchObject({ buffer_before_minutes: 5, buffer_after_minutes: 10 });
    expect(C.serviceCodec.fromItem(oldService)).toMatchObject({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
  });

  it('a field of the wrong type is a typed failure naming the kind, key and field, never the value', () => {
    const item: Record<string, unknown> = {
      ...C.appointmentCodec.toItem(appointment),
      notes: 12345,
      status: 'teleported',
    };
    const failure = failureOf(() => C.appointmentCodec.fromItem(item));
    expect(failure?.code).toBe('corrupt');
    expect(failure?.message).toContain('APPOINTMENT');
    expect(failure?.message).toContain(String(item.pk));
    expect(failure?.message).toMatch(/notes.*status|status.*notes/);
    expect(failure?.message).not.toContain('12345');
    expect(failure?.message).not.toContain('teleported');
  });

  it('a missing field is a failure; an unknown one is left behind', () => {
    const { price_cents: _price, ...missing } = C.appointmentCodec.toItem(appointment);
    expect(failureOf(() => C.appointmentCodec.fromItem(missing))?.message).toContain('price_cents');
    expect(C.appointmentCodec.fromItem({ ...C.appointmentCodec.toItem(appointment), future_field: 1 })).toEqual(
      appointment,
    );
  });

  it("another kind's item under a kind's key is a typed failure, even when its fields would pass", () => {
    const item = C.appointmentCodec.toItem(appointment);
    expect(failureOf(() => C.appointmentCodec.fromItem({ ...item, entity: 'CLIENT' }))?.message).toMatch(
      /APPOINTMENT: entity$/,
    );
    const { entity: _entity, ...untagged } = item;
    expect(failureOf(() => C.appointmentCodec.fromItem(untagged))?.code).toBe('corrupt');
    expect(failureOf(() => C.clientCodec.fromItem(item))?.message).toContain('as CLIENT');
  });

  it("a client search entry's failure withholds its sort key (it holds search terms)", () => {
    const item = C.clientSearchCodec.toItem({
      medspa_id: MID,
      term: 'olivia',
      client_id: appointment.client_id,
      membership_status: 'none',
    });
    const failure = failureOf(() => C.clientSearchCodec.fromItem({ ...item, client_id: 7 }));
    expect(failure?.message).toContain('(withheld)');
    expect(failure?.message).not.toContain('olivia');
  });

  it('practices stored before the later settings read with their defaults; a wrong setting is a failure', () => {
    const practice = {
      pk: `P#${MID}`,
      sk: 'PRACTICE',
      entity: 'PRACTICE',
      id: MID,
      name: 'Glow',
      time_zone: 'America/New_York',
      currency: 'USD',
      reminder_lead_minutes: 1440,
      api_access: 'enabled',
      version: 1,
      created_at: 'x',
      updated_at: 'x',
    };
    expect(C.practiceCodec.fromItem(practice)).toMatchObject({
      allowed_origins: [],
      online_booking: { enabled: false, horizon_days: 60 },
    });
    expect(
      failureOf(() => C.practiceCodec.fromItem({ ...practice, online_booking: { enabled: 'yes' } }))?.message,
    ).toContain('online_booking.enabled');
  });

  it("the online ledger gathers its entries and refuses one that is not an instant's text", () => {
    const item = C.onlineLedgerCodec.toItem({
      medspa_id: MID,
      client_id: appointment.client_id,
      ends: { a: '2026-12-01T16:00:00.000Z' },
      version: 2,
    });
    expect(C.onlineLedgerCodec.fromItem(item)).toEqual({
      medspa_id: MID,
      client_id: appointment.client_id,
      ends: { a: '2026-12-01T16:00:00.000Z' },
      version: 2,
    });
    expect(
      failureOf(() => C.onlineLedgerCodec.fromItem({ ...item, [`${C.LEDGER_ENTRY_PREFIX}b`]: 5 }))?.message,
    ).toContain(`${C.LEDGER_ENTRY_PREFIX}b`);
  });

  it('a treatment record written before its practice was stored takes it from its key, and before sign and lock is a draft', () => {
    const record = {
      medspa_id: MID,
      appointment_id: appointment.id,
      client_id: appointment.client_id,
      provider_id: appointment.provider_id,
      recorded_by: 'x',
      version: 1,
      created_at: 'x',
      updated_at: 'x',
      status: 'draft' as const,
      signed_at: null,
      signed_by: null,
      revision: null,
      amendment_reason: null,
    };
    const {
      medspa_id: _mid,
      status: _status,
      signed_at: _at,
      signed_by: _by,
      revision: _revision,
      amendment_reason: _reason,
      ...old
    } = C.treatmentRecordCodec.toItem(record);
    expect(C.treatmentRecordCodec.fromItem(old)).toEqual(record);
  });

  it("a delivery's stored event is checked once parsed", () => {
    const delivery: DeliveryRecord = {
      id: '66666666-6666-4666-8666-666666666666',
      medspa_id: MID,
      subscription_id: appointment.client_id,
      event_id: 'evt_1',
      event_type: 'appointment.created',
      attempt: 1,
      status: 'pending',
      response_status: null,
      duration_ms: null,
      error: null,
      next_attempt_at: null,
      created_at: '2026-11-01T10:00:00.000Z',
      event: {
        id: 'evt_1',
        type: 'appointment.created',
        created_at: '2026-11-01T10:00:00.000Z',
        medspa_id: MID,
        data: { object: { id: 'a' } },
      },
    };
    const item = C.deliveryCodec.toItem(delivery);
    expect(C.deliveryCodec.fromItem(item)).toEqual(delivery);
    expect(failureOf(() => C.deliveryCodec.fromItem({ ...item, event_json: '{"id":1' }))?.message).toContain(
      'event_json',
    );
    expect(
      failureOf(() =>
        C.deliveryCodec.fromItem({ ...item, event_json: JSON.stringify({ ...delivery.event, type: 'nope' }) }),
      )?.message,
    ).toContain('event_json');
  });
});
