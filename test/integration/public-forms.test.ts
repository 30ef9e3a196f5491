import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { call } from '../fixtures/api';
import { makeFormTemplate } from '../fixtures/forms';
import { enableOnlineBooking, makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime, type Scene } from '../fixtures/scheduling';

/** A booking's forms by its manage link (API reference, section 14 "Public"; section 10's token and key). */

let scene: Scene;
let key: string;
let intake: any;
let consent: any;
beforeAll(async () => {
  scene = await makeOnlineScene();
  [intake, consent] = await Promise.all([
    makeFormTemplate(scene.practice, {
      name: 'Intake',
      kind: 'intake',
      fields: [{ key: 'goals', label: 'Your goals', type: 'textarea', required: true }],
    }),
    makeFormTemplate(scene.practice, {
      name: 'Consent',
      kind: 'consent',
      fields: [{ key: 'agree', label: 'I agree', type: 'boolean', required: true }],
    }),
  ]);
  const patched = await call('PATCH', `/v1/services/${scene.service.id}`, {
    token: scene.practice.adminToken,
    body: { required_form_template_ids: [intake.id, consent.id] },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const created = await call('POST', '/v1/publishable-keys', {
    token: scene.practice.adminToken,
    body: { name: 'Site', allowed_origins: ['https://spa.example'] },
  });
  key = created.body.data.key;
});

/** Each booking at its own time of the booking day (10:00, 12:00, ...). */
let bookings = 0;
async function bookOnce(): Promise<{ appointment_id: string; manage_token: string }> {
  const hour = String(10 + 2 * bookings++).padStart(2, '0');
  const booked = await call('POST', '/v1/public/bookings', {
    body: onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, `${hour}:00`) }),
    headers: { 'x-publishable-key': key, 'idempotency-key': `forms-${Math.random()}` },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return booked.body.data;
}

const forms = (appointmentId: string, token: string) =>
  call('GET', `/v1/public/bookings/${appointmentId}/forms`, {
    headers: { 'x-publishable-key': key, 'x-booking-token': token },
  });
const send = (appointmentId: string, token: string, body: object, headers: Record<string, string> = {}) =>
  call('POST', `/v1/public/bookings/${appointmentId}/forms`, {
    body,
    headers: { 'x-publishable-key': key, 'x-booking-token': token, ...headers },
    sourceIp: '203.0.113.9',
  });

describe('public booking forms', () => {
  it('lists the forms still needed at their current versions, takes them (source public), and the list empties', async () => {
    const booking = await bookOnce();
    const needed = await forms(booking.appointment_id, booking.manage_token);
    expect(needed.status, JSON.stringify(needed.body)).toBe(200);
    expect(needed.body.data).toEqual([
      {
        template_id: intake.id,
        name: 'Intake',
        version: 1,
        kind: 'intake',
        signature_required: false,
        body_markdown: intake.body_markdown,
        fields: intake.fields,
      },
      {
        template_id: consent.id,
        name: 'Consent',
        version: 1,
        kind: 'consent',
        signature_required: true,
        body_markdown: consent.body_markdown,
        fields: consent.fields,
      },
    ]);

    const taken = await send(
      booking.appointment_id,
      booking.manage_token,
      { template_id: intake.id, answers: { goals: 'Smoother forehead' } },
      { 'user-agent': 'Mozilla/5.0 (Forms test)' },
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.data).toMatchObject({
      template_id: intake.id,
      template_version: 1,
      source: 'public',
      appointment_id: booking.appointment_id,
      answers: { goals: 'Smoother forehead' },
    });
    expect(taken.body.data).not.toHaveProperty('client_ip');
    expect(taken.body.data).not.toHaveProperty('user_agent');
    // The evidence is kept with the stored submission.
    const { Item } = await ddb().send(
      new GetCommand({
        TableName: tableName(),
        Key: entityKey(scene.practice.medspaId, 'FORM_SUBMISSION', taken.body.data.id),
      }),
    );
    expect(Item).toMatchObject({ source: 'public', client_ip: '203.0.113.9', user_agent: 'Mozilla/5.0 (Forms test)' });

    expect((await forms(booking.appointment_id, booking.manage_token)).body.data.map((f: any) => f.name)).toEqual([
      'Consent',
    ]);
    const unsigned = await send(booking.appointment_id, booking.manage_token, {
      template_id: consent.id,
      answers: { agree: true },
    });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.error.details).toEqual([{ path: 'signature', message: 'a consent form must be signed' }]);
    const signed = await send(booking.appointment_id, booking.manage_token, {
      template_id: consent.id,
      answers: { agree: true },
      signature: { name: 'Robin Online' },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect((await forms(booking.appointment_id, booking.manage_token)).body.data).toEqual([]);

    // The practice sees the booking ready, and the consent.
    const detail = await call('GET', `/v1/appointments/${booking.appointment_id}`, {
      token: scene.practice.adminToken,
    });
    expect(detail.body.data.forms.missing).toEqual([]);
    expect(detail.body.data.consent_forms).toEqual([
      expect.objectContaining({ form_name: 'Consent', form_submission_id: signed.body.data.id }),
    ]);
  });

  it('refuses what the manage link does not open, forms the booking does not need, bad bodies, and while booking is off', async () => {
    const booking = await bookOnce();
    const other = await bookOnce();
    for (const token of [other.manage_token, 'nonsense', '']) {
      const listed = await forms(booking.appointment_id, token);
      expect(listed.status).toBe(404);
      expect(listed.body.error.code).toBe('APPOINTMENT_NOT_FOUND');
      const posted = await send(booking.appointment_id, token, { template_id: intake.id, answers: { goals: 'x' } });
      expect(posted.body.error.code).toBe('APPOINTMENT_NOT_FOUND');
    }
    const noKey = await call('GET', `/v1/public/bookings/${booking.appointment_id}/forms`, {
      headers: { 'x-booking-token': booking.manage_token },
    });
    expect(noKey.status).toBe(401);

    const unrelated = await makeFormTemplate(scene.practice, { fields: [] });
    const notNeeded = await send(booking.appointment_id, booking.manage_token, {
      template_id: unrelated.id,
      answers: {},
    });
    expect(notNeeded.status).toBe(404);
    expect(notNeeded.body.error.code).toBe('FORM_TEMPLATE_NOT_FOUND');
    const withAppointment = await send(booking.appointment_id, booking.manage_token, {
      template_id: intake.id,
      answers: { goals: 'x' },
      appointment_id: booking.appointment_id,
    });
    expect(withAppointment.status).toBe(400);
    expect(withAppointment.body.error.details[0].path).toBe('appointment_id');

    await enableOnlineBooking(scene.practice.medspaId, { enabled: false });
    try {
      expect((await forms(booking.appointment_id, booking.manage_token)).body.error.code).toBe(
        'ONLINE_BOOKING_DISABLED',
      );
      const off = await send(booking.appointment_id, booking.manage_token, {
        template_id: intake.id,
        answers: { goals: 'x' },
      });
      expect(off.status).toBe(403);
      expect(off.body.error.code).toBe('ONLINE_BOOKING_DISABLED');
    } finally {
      await enableOnlineBooking(scene.practice.medspaId);
    }
  });
});
