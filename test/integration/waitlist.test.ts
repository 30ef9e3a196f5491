import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { call } from '../fixtures/api';
import { counted } from '../fixtures/ddb-calls';
import { makeProvider } from '../fixtures/builders';
import { makeScene, type Scene } from '../fixtures/scheduling';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';
import {
  at,
  bookedAt,
  cancel,
  entryOf,
  sweepAt,
  waitlisted,
  waitlistedInOrder,
  waitlistWorker,
  windowOf,
} from '../fixtures/waitlist';

/**
 * The waitlist (API reference, waitlist) on DynamoDB Local: entries through the API, freed time
 * through the table stream into the production worker (lib/use-cases/waitlist-freed.ts), offer
 * expiry through the sweep at a fake instant (the shared clock set ahead, as the holds tests do).
 */

useTableStream();
afterEach(() => setClock(null));

const staff = (scene: Scene) => ({ token: scene.practice.adminToken });
const codeOf = (answer: { status: number; body: { error?: { code: string } } }) =>
  answer.status < 300 ? answer.status : answer.body.error?.code;

describe('waitlist entries', () => {
  it('are made, read, listed by service and status (a Query), and deleted to cancelled; creating one offers nothing', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const entry = await waitlisted(scene, { provider_ids: [scene.provider.id] });
    const shown = await entryOf(scene, entry.id);
    expect(shown).toMatchObject({
      id: entry.id,
      service_id: scene.service.id,
      provider_ids: [scene.provider.id],
      windows: [{ start: new Date(at('09:00')).toISOString(), end: new Date(at('13:00')).toISOString() }],
      status: 'waiting',
      offer: null,
      appointment_id: null,
      expires_at: null,
      version: 1,
    });
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('waiting');

    const listed = await call('GET', `/v1/waitlist?service_id=${scene.service.id}&status=waiting`, staff(scene));
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([entry.id]);
    expect(listed.body.pagination).toEqual({ total: 1, next_cursor: null });
    const none = await call('GET', `/v1/waitlist?service_id=${scene.service.id}&status=offered`, staff(scene));
    expect(none.body.data).toEqual([]);

    expect((await call('DELETE', `/v1/waitlist/${entry.id}`, staff(scene))).body.data).toEqual({
      id: entry.id,
      deleted: true,
    });
    expect((await entryOf(scene, entry.id)).status).toBe('cancelled');
  });

  it('are refused in create order: unknown client, service, provider, an uncertified provider, a window ending before it starts', async () => {
    const scene = await makeScene();
    const post = (body: Record<string, unknown>) =>
      call('POST', '/v1/waitlist', {
        ...staff(scene),
        body: {
          client_id: scene.client.id,
          service_id: scene.service.id,
          windows: [windowOf('09:00', '10:00')],
          ...body,
        },
      });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(codeOf(await post({ client_id: unknown, service_id: unknown }))).toBe('CLIENT_NOT_FOUND');
    expect(codeOf(await post({ service_id: unknown }))).toBe('SERVICE_NOT_FOUND');
    expect(codeOf(await post({ provider_ids: [unknown] }))).toBe('PROVIDER_NOT_FOUND');
    const uncertified = await makeProvider(scene.practice);
    expect(codeOf(await post({ provider_ids: [scene.provider.id, uncertified.id] }))).toBe('PROVIDER_NOT_CERTIFIED');
    const backwards = await post({ windows: [windowOf('10:00', '09:00')] });
    expect(backwards.body.error.details).toEqual([{ path: 'windows.0.end', message: 'must be after start' }]);
    expect(codeOf(await post({ windows: [] }))).toBe('VALIDATION_ERROR');
    expect(codeOf(await call('GET', `/v1/waitlist/${unknown}`, staff(scene)))).toBe('WAITLIST_ENTRY_NOT_FOUND');
    const entry = await waitlisted(scene);
    expect(codeOf(await call('POST', `/v1/waitlist/${entry.id}/accept`, staff(scene)))).toBe('NO_ACTIVE_OFFER');
    expect(codeOf(await call('POST', `/v1/waitlist/${entry.id}/decline`, staff(scene)))).toBe('NO_ACTIVE_OFFER');
  });

  it('past `expires_at` read expired at once and are stored so by the sweep', async () => {
    const scene = await makeScene();
    const soon = new Date(Date.now() + 60_000).toISOString();
    const entry = await waitlisted(scene, { expires_at: soon });
    const later = new Date(Date.parse(soon) + 61_000);
    setClock(() => later);
    expect((await entryOf(scene, entry.id)).status).toBe('expired');
    const stored = () => call('GET', `/v1/waitlist?service_id=${scene.service.id}&status=expired`, staff(scene));
    expect((await stored()).body.data).toEqual([]);
    await sweepAt(later);
    expect((await stored()).body.data.map((e: { id: string }) => e.id)).toEqual([entry.id]);
  });
});

describe('offers of freed time', () => {
  it('a cancel with three fitting entries: the oldest is offered; decline -> the next; expiry -> the next; accept books it, the others wait', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const tap = eventTap();
    // Offers live 30 minutes by default, 5..1440 as set; 5 in this practice.
    expect((await call('GET', '/v1/practice', staff(scene))).body.data.waitlist_offer_minutes).toBe(30);
    const setting = (minutes: number) =>
      call('PATCH', '/v1/practice', { ...staff(scene), body: { waitlist_offer_minutes: minutes } });
    for (const wrong of [4, 1441]) expect(codeOf(await setting(wrong))).toBe('VALIDATION_ERROR');
    expect((await setting(5)).body.data.waitlist_offer_minutes).toBe(5);
    const appointment = await bookedAt(scene, '10:00');
    // Made in order (the fake clock moves on between them): oldest first is A, B, C.
    const [a, b, c] = await waitlistedInOrder(scene, 3);
    // An entry whose window does not hold the freed time is never offered it.
    const elsewhere = await waitlisted(scene, { windows: [windowOf('14:00', '16:00')] });
    await worker.drain();

    expect((await cancel(scene, appointment.id)).status).toBe(200);
    await worker.drain();
    const offeredA = await entryOf(scene, a.id);
    expect(offeredA).toMatchObject({
      status: 'offered',
      offer: { scheduled_at: new Date(at('10:00')).toISOString(), provider_id: scene.provider.id },
    });
    expect(Date.parse(offeredA.offer.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    for (const other of [b, c, elsewhere]) expect((await entryOf(scene, other.id)).status).toBe('waiting');
    // The offer is a hold on that time: the time is taken.
    const hold = await call('GET', `/v1/holds/${offeredA.offer.hold_id}`, staff(scene));
    expect(hold.body.data).toMatchObject({ status: 'active', scheduled_at: offeredA.offer.scheduled_at });
    const events = (await tap.drain()).filter((event) => event.type === 'waitlist.offer_created');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toMatchObject({
      id: a.id,
      status: 'offered',
      offer: offeredA.offer,
      client: { id: a.client.id, first_name: a.client.first_name, email: a.client.email, phone: a.client.phone },
    });

    // Decline: A waits again, the time goes to B (never back to A).
    const declined = await call('POST', `/v1/waitlist/${a.id}/decline`, staff(scene));
    expect(declined.status).toBe(200);
    expect(declined.body.data).toMatchObject({ status: 'waiting', offer: null });
    await worker.drain();
    const offeredB = await entryOf(scene, b.id);
    expect(offeredB.status).toBe('offered');
    expect((await entryOf(scene, a.id)).status).toBe('waiting');

    // B's offer expires: the sweep (a minute later) moves the time on to C, and B waits again.
    const afterExpiry = new Date(Date.parse(offeredB.offer.expires_at) + 60_000);
    setClock(() => afterExpiry);
    expect(codeOf(await call('POST', `/v1/waitlist/${b.id}/accept`, staff(scene)))).toBe('OFFER_EXPIRED');
    await sweepAt(afterExpiry);
    // The sweep's own hold is on the stream: draining it arms its expiry and offers nothing more.
    await worker.drain();
    const offeredC = await entryOf(scene, c.id);
    expect(offeredC.status).toBe('offered');
    expect((await entryOf(scene, b.id)).status).toBe('waiting');
    // A second sweep changes nothing.
    await sweepAt(afterExpiry);
    expect((await entryOf(scene, c.id)).offer).toEqual(offeredC.offer);

    // Accept: booked through the hold, the entry booked, the others still waiting.
    const accepted = await call('POST', `/v1/waitlist/${c.id}/accept`, staff(scene));
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    expect(accepted.body.data).toMatchObject({
      waitlist_entry_id: c.id,
      hold_id: offeredC.offer.hold_id,
      client_id: c.client_id,
      scheduled_at: offeredC.offer.scheduled_at,
      status: 'scheduled',
    });
    expect(await entryOf(scene, c.id)).toMatchObject({ status: 'booked', appointment_id: accepted.body.data.id });
    for (const other of [a, b, elsewhere]) expect((await entryOf(scene, other.id)).status).toBe('waiting');
    expect(codeOf(await call('POST', `/v1/waitlist/${c.id}/accept`, staff(scene)))).toBe('NO_ACTIVE_OFFER');
    await worker.drain();
    for (const other of [a, b]) expect((await entryOf(scene, other.id)).status).toBe('waiting');
  });

  it('a released hold and a move free time too; a booked time that is not free offers nothing', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const moved = await bookedAt(scene, '10:00');
    const blocker = await bookedAt(scene, '11:00');
    const entry = await waitlisted(scene, { windows: [windowOf('11:00', '12:00')] });
    const early = await waitlisted(scene, { windows: [windowOf('10:00', '11:00')] });
    await worker.drain();
    // Moving the 10:00 frees 10:00-11:00: offered to the entry waiting for it.
    const patch = await call('PATCH', `/v1/appointments/${moved.id}`, {
      ...staff(scene),
      body: { scheduled_at: at('14:00') },
    });
    expect(patch.status).toBe(200);
    await worker.drain();
    expect((await entryOf(scene, early.id)).status).toBe('offered');
    expect((await entryOf(scene, entry.id)).status).toBe('waiting');

    // A hold on 15:00 released frees nothing the entry fits; the 11:00 cancel does.
    const hold = await call('POST', '/v1/holds', {
      ...staff(scene),
      body: { service_id: scene.service.id, provider_id: scene.provider.id, scheduled_at: at('15:00') },
    });
    expect((await call('DELETE', `/v1/holds/${hold.body.data.id}`, staff(scene))).status).toBe(200);
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('waiting');
    await cancel(scene, blocker.id);
    await worker.drain();
    expect(await entryOf(scene, entry.id)).toMatchObject({
      status: 'offered',
      offer: { scheduled_at: new Date(at('11:00')).toISOString() },
    });
  });

  it("an offer's hold confirmed through POST /v1/holds/{id}/confirm books the entry too; a delete withdraws an offer and moves its time on", async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const [ten, eleven] = [await bookedAt(scene, '10:00'), await bookedAt(scene, '11:00')];
    const first = await waitlisted(scene, { windows: [windowOf('10:00', '11:00')] });
    await cancel(scene, ten.id);
    await worker.drain();
    const offer = (await entryOf(scene, first.id)).offer;
    const confirmed = await call('POST', `/v1/holds/${offer.hold_id}/confirm`, {
      ...staff(scene),
      body: { client_id: first.client_id },
    });
    expect(confirmed.status).toBe(201);
    await worker.drain();
    expect(await entryOf(scene, first.id)).toMatchObject({ status: 'booked', appointment_id: confirmed.body.data.id });

    const a = await waitlisted(scene, { windows: [windowOf('11:00', '12:00')] });
    const b = await waitlisted(scene, { windows: [windowOf('11:00', '12:00')] });
    await cancel(scene, eleven.id);
    await worker.drain();
    expect((await entryOf(scene, a.id)).status).toBe('offered');
    expect((await call('DELETE', `/v1/waitlist/${a.id}`, staff(scene))).status).toBe(200);
    expect((await entryOf(scene, a.id)).status).toBe('cancelled');
    await worker.drain();
    expect((await entryOf(scene, b.id)).status).toBe('offered');
  });
});

describe('a practice that never had a waitlist entry', () => {
  it('pays one read for freed time, and records nothing', async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const booking = await bookedAt(scene, '10:00');
    await worker.drain();
    expect((await cancel(scene, booking.id)).status).toBe(200);
    const { calls } = await counted(() => worker.drain());
    // The practice's waitlist mark, strongly (absent): no freed time item, no entry Query, no practice read.
    expect(calls).toEqual({ GetItemCommand: 1 });
    // Its first entry marks it: the next freed time is recorded and offered.
    const entry = await waitlisted(scene, { provider_ids: [scene.provider.id] });
    const other = await bookedAt(scene, '11:00');
    await worker.drain();
    expect((await cancel(scene, other.id)).status).toBe(200);
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('offered');
  });

  it("once marked, a plain hold's expiry is offered by the sweep", async () => {
    const scene = await makeScene();
    const worker = waitlistWorker();
    const entry = await waitlisted(scene, { windows: [windowOf('16:00', '17:00')] });
    const hold = await call('POST', '/v1/holds', {
      ...staff(scene),
      body: {
        service_id: scene.service.id,
        provider_id: scene.provider.id,
        scheduled_at: at('16:00'),
        // The longest hold: its expiry lies past the minutes the earlier tests' sweeps covered.
        expires_in_seconds: 1800,
      },
    });
    expect(hold.status).toBe(201);
    // The hold's INSERT arms its expiry for the sweep.
    await worker.drain();
    expect((await entryOf(scene, entry.id)).status).toBe('waiting');
    const afterExpiry = new Date(Date.parse(hold.body.data.expires_at) + 60_000);
    setClock(() => afterExpiry);
    await sweepAt(afterExpiry);
    expect(await entryOf(scene, entry.id)).toMatchObject({
      status: 'offered',
      offer: { scheduled_at: new Date(at('16:00')).toISOString() },
    });
    await worker.drain();
  });
});
