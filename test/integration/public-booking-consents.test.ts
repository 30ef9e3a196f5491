import { beforeAll, describe, expect, it } from 'vitest';
import { getClient } from '../../lib/use-cases/clients';
import { getContactConsents, listConsentedClients } from '../../lib/use-cases/contact-consents';
import { bookOnline } from '../../lib/use-cases/public-booking';
import { call } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * A public booking's contact consents (API reference, section 14): each `true` is a grant with
 * source `public` for the client booked as, in the booking's own transaction; `false` or absent
 * records nothing; an existing client only gains grants, and a repeat grant records nothing new.
 */

const NOW = new Date();
const TEXT = 'Text me offers from Glow Med Spa';
let scene: Scene;
let medspaId: string;
let slot = 0;

beforeAll(async () => {
  scene = await makeOnlineScene();
  medspaId = scene.practice.medspaId;
});

/** A booking body at the next free hour of BOOKING_DAY (from 09:00; the service takes 60 minutes), so bookings never collide. */
const body = (client: Record<string, unknown> = {}) => {
  const base = onlineBooking(scene);
  const minutes = 9 * 60 + 60 * slot++;
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return { ...base, scheduled_at: nyTime(BOOKING_DAY, hhmm), client: { ...base.client, ...client } };
};
const clientOf = async (appointmentId: string) =>
  (await call('GET', `/v1/appointments/${appointmentId}`, { token: scene.practice.adminToken })).body.data
    .client_id as string;
const onList = async (consent: 'sms_marketing' | 'email_marketing', clientId: string) =>
  (await listConsentedClients(medspaId, consent, { limit: 100 }, NOW)).data.some((client) => client.id === clientId);

describe('POST /v1/public/bookings with client.consents', { timeout: 60_000 }, () => {
  it('over HTTP: a true is a public grant with the text shown; false records nothing', async () => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Site', allowed_origins: ['https://spa.example'] },
    });
    const first = body({ consents: { sms_marketing: true, email_marketing: false, text_shown: TEXT } });
    const booking = await call('POST', '/v1/public/bookings', {
      body: first,
      headers: { 'x-publishable-key': created.body.data.key, 'idempotency-key': `consents-${Date.now()}` },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    const clientId = await clientOf(booking.body.data.appointment_id);
    const consents = await call('GET', `/v1/clients/${clientId}/contact-consents`, {
      token: scene.practice.adminToken,
    });
    expect(consents.body.data).toEqual({
      current: [
        { channel: 'sms', purpose: 'marketing', status: 'granted', source: 'public', updated_at: expect.any(String) },
      ],
      history: [
        {
          channel: 'sms',
          purpose: 'marketing',
          status: 'granted',
          source: 'public',
          evidence: { text_shown: TEXT },
          recorded_at: consents.body.data.current[0].updated_at,
        },
      ],
    });
    expect(await onList('sms_marketing', clientId)).toBe(true);
    expect(await onList('email_marketing', clientId)).toBe(false);

    // The same client books again: the granted SMS consent records nothing more, the email one is new.
    const again = await call('POST', '/v1/public/bookings', {
      body: body({ ...first.client, consents: { sms_marketing: true, email_marketing: true, text_shown: TEXT } }),
      headers: { 'x-publishable-key': created.body.data.key, 'idempotency-key': `again-${Date.now()}` },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(await clientOf(again.body.data.appointment_id)).toBe(clientId);
    const after = await call('GET', `/v1/clients/${clientId}/contact-consents`, { token: scene.practice.adminToken });
    expect(after.body.data.history.map((h: { channel: string }) => h.channel)).toEqual(['email', 'sms']);

    // Unknown fields in consents are refused, like any body field.
    const typo = await call('POST', '/v1/public/bookings', {
      // The first booking's time (the body is refused before any time is looked at).
      body: { ...first, client: { ...first.client, consents: { sms: true, text_shown: TEXT } } },
      headers: { 'x-publishable-key': created.body.data.key, 'idempotency-key': `typo-${Date.now()}` },
    });
    expect(typo.status).toBe(400);
  });

  it('a held booking (hold_id with X-Hold-Token) grants the same way', async () => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Holds', allowed_origins: ['https://spa.example'] },
    });
    const key = created.body.data.key as string;
    const { scheduled_at, client } = body({ consents: { email_marketing: true, text_shown: TEXT } });
    const held = await call('POST', '/v1/public/holds', {
      headers: { 'x-publishable-key': key, 'idempotency-key': `hold-${Date.now()}` },
      body: { service_id: scene.service.id, scheduled_at },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const booking = await call('POST', '/v1/public/bookings', {
      headers: {
        'x-publishable-key': key,
        'idempotency-key': `held-${Date.now()}`,
        'x-hold-token': held.body.data.hold_token,
      },
      body: { hold_id: held.body.data.hold_id, client },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    const clientId = await clientOf(booking.body.data.appointment_id);
    const { current } = await getContactConsents(medspaId, clientId);
    expect(current).toEqual([
      expect.objectContaining({ channel: 'email', purpose: 'marketing', status: 'granted', source: 'public' }),
    ]);
    expect(await onList('email_marketing', clientId)).toBe(true);
  });

  it('absent consents or only false record nothing', async () => {
    for (const consents of [undefined, { sms_marketing: false, email_marketing: false, text_shown: TEXT }]) {
      const booked = await bookOnline(medspaId, body(consents ? { consents } : {}) as never, NOW);
      const clientId = await clientOf(booked.appointment_id);
      expect(await getContactConsents(medspaId, clientId)).toEqual({ current: [], history: [] });
    }
  });

  it('an existing client only gains grants: its record is unchanged, a revoked consent is granted again', async () => {
    const existing = await makeClient(scene.practice, {
      first_name: 'Olivia',
      last_name: 'Hart',
      email: `olivia.${Date.now()}@example.com`,
    });
    const put = (pair: string, status: string) =>
      call('PUT', `/v1/clients/${existing.id}/contact-consents/${pair}`, {
        token: scene.practice.adminToken,
        body: { status, source: 'staff' },
      });
    expect((await put('sms/marketing', 'revoked')).status).toBe(200);
    expect((await put('email/transactional', 'granted')).status).toBe(200);
    const before = await getClient(medspaId, existing.id, NOW);

    const booked = await bookOnline(
      medspaId,
      body({
        first_name: 'Someone',
        last_name: 'Else',
        email: existing.email!.toUpperCase(),
        consents: { sms_marketing: true, email_marketing: true, text_shown: TEXT },
      }) as never,
      NOW,
    );
    expect(await clientOf(booked.appointment_id)).toBe(existing.id);
    expect(await getClient(medspaId, existing.id, NOW)).toEqual(before);
    const { current, history } = await getContactConsents(medspaId, existing.id);
    expect(current.map((c) => [c.channel, c.purpose, c.status, c.source])).toEqual([
      ['sms', 'marketing', 'granted', 'public'],
      ['email', 'marketing', 'granted', 'public'],
      ['email', 'transactional', 'granted', 'staff'],
    ]);
    expect(history).toHaveLength(4);
    expect(await onList('sms_marketing', existing.id)).toBe(true);
    expect(await onList('email_marketing', existing.id)).toBe(true);

    // A repeat booking granting what is granted books, and records nothing new.
    const again = await bookOnline(
      medspaId,
      body({ email: existing.email!, consents: { sms_marketing: true, text_shown: 'Another wording' } }) as never,
      NOW,
    );
    expect(await clientOf(again.appointment_id)).toBe(existing.id);
    expect((await getContactConsents(medspaId, existing.id)).history).toHaveLength(4);

    // A false never revokes.
    await bookOnline(
      medspaId,
      body({
        email: existing.email!,
        consents: { sms_marketing: false, email_marketing: false, text_shown: TEXT },
      }) as never,
      NOW,
    );
    const after = await getContactConsents(medspaId, existing.id);
    expect(after.history).toHaveLength(4);
    expect(after.current.filter((c) => c.status === 'granted')).toHaveLength(3);
  });

  it('concurrent first bookings by one new email with a grant, each from its own address: one client, one grant', async () => {
    const created = await call('POST', '/v1/publishable-keys', {
      token: scene.practice.adminToken,
      body: { name: 'Race site', allowed_origins: ['https://spa.example'] },
    });
    const email = `race.${Date.now()}@example.com`;
    // Three times (the per-client limit): a race on the email item and on the consent state alike.
    const answers = await Promise.all(
      ['09:00', '11:00', '13:00'].map((hhmm, index) =>
        call('POST', '/v1/public/bookings', {
          body: {
            ...body({ email, consents: { sms_marketing: true, text_shown: TEXT } }),
            scheduled_at: nyTime(addDays(BOOKING_DAY, 1), hhmm),
          },
          headers: { 'x-publishable-key': created.body.data.key, 'idempotency-key': `race-${hhmm}-${Date.now()}` },
          sourceIp: `198.51.100.${index + 1}`,
        }),
      ),
    );
    const results = answers.map((answer) =>
      answer.status === 201
        ? { status: 'fulfilled' as const, value: answer.body.data as { appointment_id: string } }
        : { status: 'rejected' as const, reason: answer.body },
    );
    const booked = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(booked).toHaveLength(3);
    const clientIds = new Set(await Promise.all(booked.map((b) => clientOf(b.appointment_id))));
    expect(clientIds.size).toBe(1);
    const [clientId] = [...clientIds];
    const { current, history } = await getContactConsents(medspaId, clientId!);
    expect(history).toHaveLength(1);
    expect(current).toEqual([expect.objectContaining({ status: 'granted', source: 'public' })]);
  });
});
