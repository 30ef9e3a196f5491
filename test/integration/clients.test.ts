import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { ddb, ddbCalls, tableName } from '../../lib/db/client';
import { clientSearchPk, entityKey } from '../../lib/db/keys';
import { clientHistory, listClients } from '../../lib/use-cases/clients';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { addDays, daysFromNow, NY, todayIn } from '../fixtures/dates';
import { book, booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const ok = <T extends { status: number; body: any }>(response: T, status = 200): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response;
};

/** `GET /v1/clients?q=...`: the ids found, the total and the cursor. */
async function search(practice: TestPractice, q: string, extra = '') {
  const response = ok(
    await call('GET', `/v1/clients?q=${encodeURIComponent(q)}${extra}`, { token: practice.adminToken }),
  );
  return {
    ids: response.body.data.map((client: { id: string }) => client.id) as string[],
    ...(response.body.pagination as { total: number; next_cursor: string | null }),
  };
}

const sorted = (ids: string[]) => [...ids].sort();

/** Walks an appointment through status moves (API reference, appointments), each answering 200. */
async function walk(token: string, appointmentId: string, steps: string[]) {
  for (const status of steps)
    ok(await call('PATCH', `/v1/appointments/${appointmentId}/status`, { token, body: { status } }));
}
const TO_COMPLETED = ['confirmed', 'checked_in', 'in_progress', 'completed'];
const TO_NO_SHOW = ['confirmed', 'checked_in', 'no_show'];

const rawClient = async (medspaId: string, id: string) =>
  (
    await ddb().send(
      new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, 'CLIENT', id), ConsistentRead: true }),
    )
  ).Item!;

/** `book`'s default day (some weeks ahead) plus `n` days. */
const day = (n = 0) => addDays(BOOKING_DAY, n);

/** Books a new appointment of `clientId` and returns it. */
const bookFor = async (scene: Scene, clientId: string, date: string, hhmm = '10:00') =>
  booked(scene, { client_id: clientId, scheduled_at: nyTime(date, hhmm) });

describe('client search (?q=)', () => {
  let practice: TestPractice;
  let emilie: any;
  let emil: any;
  let olivia: any;
  beforeAll(async () => {
    practice = await makePractice();
    emilie = await makeClient(practice, {
      first_name: 'Émilie',
      last_name: 'Durand',
      email: 'Emilie.Durand@Example.com',
      phone: '+1 555 010 0100',
    });
    emil = await makeClient(practice, {
      first_name: 'Emil',
      last_name: 'Nolan',
      email: 'enolan@spa.example',
      phone: '(617) 555-0199',
    });
    olivia = await makeClient(practice, {
      first_name: 'Olivia',
      last_name: 'Hart',
      email: 'ohart@example.com',
      phone: null,
      membership_status: 'active',
    });
  });

  it.each([
    ['a first-name prefix, accents and case ignored', 'emil', () => [emilie.id, emil.id]],
    ['a whole first name', 'ÉMILIE', () => [emilie.id]],
    ['a last name', 'durand', () => [emilie.id]],
    ['a last-name prefix', 'Nol', () => [emil.id]],
    ['a full name, spaces collapsed', '  emilie   dur ', () => [emilie.id]],
    ['an email prefix', 'emilie.durand@ex', () => [emilie.id]],
    ['a whole email, any case', 'OHART@EXAMPLE.COM', () => [olivia.id]],
    ['phone digits as typed', '555-01', () => [emilie.id]],
    ['phone digits with the country code', '+1 555', () => [emilie.id]],
    ['another phone', '(617) 555', () => [emil.id]],
    ['nothing', 'zz', () => []],
  ])('finds by %s', async (_label, q, expected) => {
    const found = await search(practice, q);
    expect(sorted(found.ids)).toEqual(sorted(expected()));
    expect(found.total).toBe(expected().length);
    expect(found.next_cursor).toBeNull();
  });

  it('returns full clients with a health score', async () => {
    const response = ok(await call('GET', '/v1/clients?q=hart', { token: practice.adminToken }));
    expect(response.body.data).toEqual([olivia]);
    expect(response.body.data[0].health_score).toBe(0);
  });

  it("never returns another practice's clients", async () => {
    const other = await makePractice();
    const theirs = await makeClient(other, { first_name: 'Emily', last_name: 'Durand' });
    expect((await search(other, 'emil')).ids).toEqual([theirs.id]);
    expect(sorted((await search(practice, 'emil')).ids)).toEqual(sorted([emilie.id, emil.id]));
    expect((await search(practice, 'emily')).ids).toEqual([]);
  });

  it('reflects renames and deletions at once', async () => {
    const fresh = await makePractice();
    const client = await makeClient(fresh, { first_name: 'Grace', last_name: 'Lowell', email: 'grace@example.com' });
    const stale = await call('PATCH', `/v1/clients/${client.id}`, {
      token: fresh.adminToken,
      body: { last_name: 'Moreau' },
      headers: { 'if-match': '"7"' },
    });
    expectError(stale, 409, 'VERSION_CONFLICT');
    expect((await search(fresh, 'lowell')).ids).toEqual([client.id]);
    const renamed = ok(
      await call('PATCH', `/v1/clients/${client.id}`, {
        token: fresh.adminToken,
        body: { last_name: 'Moreau', email: 'gm@example.com' },
        headers: { 'if-match': '"1"' },
      }),
    );
    expect(renamed.body.data).toMatchObject({ last_name: 'Moreau', email: 'gm@example.com', version: 2 });
    expect(ok(await call('GET', `/v1/clients/${client.id}`, { token: fresh.adminToken })).body.data).toEqual(
      renamed.body.data,
    );
    expect((await search(fresh, 'lowell')).ids).toEqual([]);
    expect((await search(fresh, 'grace lowell')).ids).toEqual([]);
    expect((await search(fresh, 'grace@')).ids).toEqual([]);
    expect((await search(fresh, 'moreau')).ids).toEqual([client.id]);
    expect((await search(fresh, 'grace mo')).ids).toEqual([client.id]);
    expect((await search(fresh, 'gm@example')).ids).toEqual([client.id]);

    // A PATCH that does not touch a searched field leaves the index alone.
    ok(
      await call('PATCH', `/v1/clients/${client.id}`, { token: fresh.adminToken, body: { notes: 'Prefers mornings' } }),
    );
    expect((await search(fresh, 'grace')).ids).toEqual([client.id]);

    ok(await call('DELETE', `/v1/clients/${client.id}`, { token: fresh.adminToken }));
    for (const q of ['grace', 'moreau', 'deleted', 'client']) expect((await search(fresh, q)).total).toBe(0);
  });

  it('pages through matches without repeating a client that matches by several terms', async () => {
    const fresh = await makePractice();
    // Each matches "pa" by first name, last name and full name, yet is counted and listed once.
    const clients = [];
    for (let i = 0; i < 5; i++)
      clients.push(await makeClient(fresh, { first_name: 'Pat', last_name: `Page${i}`, email: `pat${i}@example.com` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof search>> = await search(
        fresh,
        'pa',
        `&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.total).toBe(5);
      expect(page.ids.length).toBeLessThanOrEqual(2);
      seen.push(...page.ids);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(sorted(seen)).toEqual(sorted(clients.map((client) => client.id)));
  });

  it('refuses a cursor from another list or query', async () => {
    const fresh = await makePractice();
    for (let i = 0; i < 3; i++) await makeClient(fresh, { first_name: 'Kim', last_name: `K${i}` });
    const page = await search(fresh, 'kim', '&limit=1');
    expect(page.next_cursor).not.toBeNull();
    const cursor = encodeURIComponent(page.next_cursor!);
    expectError(
      await call('GET', `/v1/clients?q=other&cursor=${cursor}`, { token: fresh.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('GET', `/v1/clients?cursor=${cursor}`, { token: fresh.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('filters by membership_status, alone and with q', async () => {
    const fresh = await makePractice();
    const gold = await makeClient(fresh, {
      first_name: 'Ann',
      last_name: 'Gold',
      membership_status: 'active',
      membership_tier: 'Gold',
    });
    const paused = await makeClient(fresh, { first_name: 'Ann', last_name: 'Paused', membership_status: 'paused' });
    await makeClient(fresh, { first_name: 'Bob', last_name: 'Plain' });

    const active = ok(await call('GET', '/v1/clients?membership_status=active', { token: fresh.adminToken })).body;
    expect(active.data.map((client: { id: string }) => client.id)).toEqual([gold.id]);
    expect(active.pagination).toEqual({ total: 1, next_cursor: null });
    expect((await search(fresh, 'ann', '&membership_status=paused')).ids).toEqual([paused.id]);
    expect((await search(fresh, 'ann', '&membership_status=cancelled')).total).toBe(0);

    // A membership change moves the client between filtered searches at once.
    ok(
      await call('PATCH', `/v1/clients/${paused.id}`, {
        token: fresh.adminToken,
        body: { membership_status: 'active' },
      }),
    );
    expect(sorted((await search(fresh, 'ann', '&membership_status=active')).ids)).toEqual(sorted([gold.id, paused.id]));
    expect((await search(fresh, 'ann', '&membership_status=paused')).total).toBe(0);

    expectError(
      await call('GET', '/v1/clients?membership_status=gold', { token: fresh.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('a blank q is the plain list', async () => {
    const response = ok(await call('GET', '/v1/clients?q=%20%20', { token: practice.adminToken }));
    expect(response.body.pagination.total).toBe(3);
  });

  it('is one key Query and one BatchGet, never a Scan', async () => {
    ddbCalls.reset();
    const result = await listClients(practice.medspaId, { q: 'emil', limit: 50 }, new Date());
    expect(result.data).toHaveLength(2);
    expect(Object.fromEntries(ddbCalls.counts)).toEqual({ QueryCommand: 1, BatchGetItemCommand: 1 });

    ddbCalls.reset();
    await listClients(practice.medspaId, { q: 'nobody', limit: 50 }, new Date());
    expect(Object.fromEntries(ddbCalls.counts)).toEqual({ QueryCommand: 1 });
  });
});

describe('visit statistics and health score', () => {
  it('completions and no-shows move the stats; a client who visits and returns scores above one who never shows', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const missing = await makeClient(scene.practice);
    const visits = [await bookFor(scene, scene.client.id, day()), await bookFor(scene, scene.client.id, day(1))];
    const misses = [await bookFor(scene, missing.id, day(2)), await bookFor(scene, missing.id, day(3))];
    for (const a of visits) await walk(token, a.id, TO_COMPLETED);
    for (const a of misses) await walk(token, a.id, TO_NO_SHOW);

    const good = ok(await call('GET', `/v1/clients/${scene.client.id}`, { token })).body.data;
    const bad = ok(await call('GET', `/v1/clients/${missing.id}`, { token })).body.data;
    expect(good).toMatchObject({ visit_count: 2, last_visit_at: visits[1].scheduled_at, total_spent_cents: 0 });
    expect(bad).toMatchObject({ visit_count: 0, last_visit_at: null });
    expect(good.health_score).toBeGreaterThan(bad.health_score);
    for (const client of [good, bad]) {
      expect(Number.isInteger(client.health_score)).toBe(true);
      expect(client.health_score).toBeGreaterThanOrEqual(0);
      expect(client.health_score).toBeLessThanOrEqual(100);
      expect(client).not.toHaveProperty('no_show_count');
    }
    expect((await rawClient(scene.practice.medspaId, missing.id)).no_show_count).toBe(2);

    // The list and the appointment detail show the same computed score.
    const listed = ok(await call('GET', `/v1/clients?q=${encodeURIComponent(scene.client.last_name)}`, { token })).body
      .data;
    expect(listed[0].health_score).toBe(good.health_score);
    const detail = ok(await call('GET', `/v1/appointments/${visits[0].id}`, { token })).body.data;
    expect(detail.client).toEqual(good);
  });

  it('a cancelled appointment changes no stats', async () => {
    const scene = await makeScene();
    const a = await bookFor(scene, scene.client.id, day());
    ok(await call('POST', `/v1/appointments/${a.id}/cancel`, { token: scene.practice.adminToken, body: {} }));
    expect(
      ok(await call('GET', `/v1/clients/${scene.client.id}`, { token: scene.practice.adminToken })).body.data,
    ).toMatchObject({ visit_count: 0, health_score: 0 });
  });
});

describe('client history', () => {
  it('lists completed appointments newest first with their treatment records, paginated', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const older = await bookFor(scene, scene.client.id, day());
    const newer = await bookFor(scene, scene.client.id, day(2));
    const open = await bookFor(scene, scene.client.id, day(3));
    const cancelled = await bookFor(scene, scene.client.id, day(4));
    await walk(token, older.id, TO_COMPLETED);
    await walk(token, newer.id, ['confirmed', 'checked_in', 'in_progress']);
    const record = ok(
      await call('PUT', `/v1/appointments/${newer.id}/treatment-record`, {
        token,
        body: { summary: 'Botox, 20 units', areas_treated: ['forehead'] },
      }),
    ).body.data;
    await walk(token, newer.id, ['completed']);
    await walk(token, cancelled.id, ['cancelled']);
    expect(open.status).toBe('scheduled');

    const history = ok(await call('GET', `/v1/clients/${scene.client.id}/history`, { token })).body;
    expect(history.data.map((entry: { id: string }) => entry.id)).toEqual([newer.id, older.id]);
    expect(history.pagination).toEqual({ total: 2, next_cursor: null });
    expect(history.data[0]).toMatchObject({
      status: 'completed',
      client_id: scene.client.id,
      treatment_record: { summary: 'Botox, 20 units', appointment_id: newer.id },
    });
    expect(history.data[0].treatment_record).toEqual(record);
    expect(history.data[1].treatment_record).toBeNull();

    const first = ok(
      await call('GET', `/v1/clients/${scene.client.id}/history?limit=1`, {
        token: await scene.practice.tokenForRole('provider'),
      }),
    ).body;
    expect(first.data.map((entry: { id: string }) => entry.id)).toEqual([newer.id]);
    expect(first.pagination.total).toBe(2);
    const second = ok(
      await call(
        'GET',
        `/v1/clients/${scene.client.id}/history?limit=1&cursor=${encodeURIComponent(first.pagination.next_cursor)}`,
        { token },
      ),
    ).body;
    expect(second.data.map((entry: { id: string }) => entry.id)).toEqual([older.id]);
    expect(second.pagination.next_cursor).toBeNull();

    ddbCalls.reset();
    await clientHistory(scene.practice.medspaId, scene.client.id, { limit: 50 });
    // The client, the page (the whole history: its items are the total, no COUNT), the treatment records.
    expect(Object.fromEntries(ddbCalls.counts)).toEqual({ GetItemCommand: 1, QueryCommand: 1, BatchGetItemCommand: 1 });
  });

  it('answers CLIENT_NOT_FOUND for unknown, malformed and foreign clients', async () => {
    const scene = await makeScene();
    const other = await makePractice();
    for (const [practice, id] of [
      [scene.practice, randomUUID()],
      [scene.practice, 'nope'],
      [other, scene.client.id],
    ] as const) {
      expectError(
        await call('GET', `/v1/clients/${id}/history`, { token: practice.adminToken }),
        404,
        'CLIENT_NOT_FOUND',
      );
    }
  });
});

describe('client delete', () => {
  it('erases personal data, keeps stats, hides the client and cancels only its future active appointments', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const medspaId = scene.practice.medspaId;
    const client = await makeClient(scene.practice, {
      first_name: 'Marisol',
      last_name: 'Quintero',
      email: 'marisol.q@example.com',
      phone: '+1 617 555 0123',
      date_of_birth: '1990-01-01',
      notes: 'Allergic to lidocaine',
      address: { line1: '9 Elm St', city: 'Boston' },
      tags: ['vip'],
      membership_status: 'active',
    });
    const done = await bookFor(scene, client.id, day(), '09:00');
    await walk(token, done.id, TO_COMPLETED);
    // Two weeks ago, and stays there: booked by a request made before it (creates may not start in the past).
    const pastDay = addDays(todayIn(NY), -14);
    setClock(new Date(Date.parse(nyTime(pastDay, '08:00'))));
    const past = await bookFor(scene, client.id, pastDay).finally(() => setClock(null));
    const scheduled = await bookFor(scene, client.id, day(1));
    const confirmed = await bookFor(scene, client.id, day(2));
    const inProgress = await bookFor(scene, client.id, day(3));
    const checkedIn = await bookFor(scene, client.id, day(4));
    await walk(token, confirmed.id, ['confirmed']);
    await walk(token, inProgress.id, ['confirmed', 'checked_in', 'in_progress']);
    await walk(token, checkedIn.id, ['confirmed', 'checked_in']);
    const otherClients = await bookFor(scene, scene.client.id, day(5));
    const statsBefore = await rawClient(medspaId, client.id);

    const deleted = ok(
      await call('DELETE', `/v1/clients/${client.id}`, { token: await scene.practice.tokenForRole('front_desk') }),
    );
    expect(deleted.body.data).toEqual({ id: client.id, deleted: true });

    const stored = await rawClient(medspaId, client.id);
    expect(stored).toMatchObject({
      first_name: 'Deleted',
      last_name: 'Client',
      email: null,
      phone: null,
      date_of_birth: null,
      address: null,
      notes: null,
      tags: [],
      visit_count: 1,
      last_visit_at: done.scheduled_at,
      total_spent_cents: 0,
      membership_status: 'active',
    });
    expect(typeof stored.deleted_at).toBe('string');
    for (const pii of [
      'Marisol',
      'Quintero',
      'marisol',
      'quintero',
      '555 0123',
      '5550123',
      'lidocaine',
      'Elm',
      '1990-01-01',
      'vip',
    ]) {
      expect(JSON.stringify(stored)).not.toContain(pii);
    }
    expect({
      visit_count: stored.visit_count,
      no_show_count: stored.no_show_count,
      last_visit_at: stored.last_visit_at,
    }).toEqual({
      visit_count: statsBefore.visit_count,
      no_show_count: statsBefore.no_show_count,
      last_visit_at: statsBefore.last_visit_at,
    });
    const { Items: indexItems = [] } = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': clientSearchPk(medspaId) },
        ConsistentRead: true,
      }),
    );
    expect(indexItems.filter((item) => item.client_id === client.id)).toEqual([]);

    expectError(await call('GET', `/v1/clients/${client.id}`, { token }), 404, 'CLIENT_NOT_FOUND');
    expectError(await call('DELETE', `/v1/clients/${client.id}`, { token }), 404, 'CLIENT_NOT_FOUND');
    const listed = ok(await call('GET', '/v1/clients?limit=100', { token })).body;
    expect(listed.data.map((c: { id: string }) => c.id)).toEqual([scene.client.id]);
    expect((await search(scene.practice, 'marisol')).total).toBe(0);
    expect((await search(scene.practice, '617555')).total).toBe(0);

    const statusOf = async (id: string) => ok(await call('GET', `/v1/appointments/${id}`, { token })).body.data;
    for (const a of [scheduled, confirmed, inProgress]) {
      expect(await statusOf(a.id)).toMatchObject({ status: 'cancelled', cancellation_reason: 'client_deleted' });
    }
    expect((await statusOf(done.id)).status).toBe('completed');
    expect((await statusOf(past.id)).status).toBe('scheduled');
    expect((await statusOf(checkedIn.id)).status).toBe('checked_in');
    expect((await statusOf(otherClients.id)).status).toBe('scheduled');
    // The cancelled time is free again.
    ok(await book(scene, { scheduled_at: nyTime(day(1), '10:00') }), 201);

    // Anonymised history stays: the appointment detail still shows the (anonymised) client.
    expect((await statusOf(done.id)).client).toMatchObject({ id: client.id, first_name: 'Deleted', email: null });
  });

  it("still completes a deleted client's checked-in appointment and counts the visit", async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const a = await bookFor(scene, scene.client.id, day());
    await walk(token, a.id, ['confirmed', 'checked_in']);
    ok(await call('DELETE', `/v1/clients/${scene.client.id}`, { token }));
    await walk(token, a.id, ['in_progress', 'completed']);
    expect(await rawClient(scene.practice.medspaId, scene.client.id)).toMatchObject({
      visit_count: 1,
      last_visit_at: a.scheduled_at,
      first_name: 'Deleted',
    });
  });
});

describe('consents', () => {
  it('records a consent, lists newest signed first, and shows them in the appointment detail', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const url = `/v1/clients/${scene.client.id}/consents`;
    const appointment = await bookFor(scene, scene.client.id, day());

    const first = ok(
      await call('POST', url, { token, body: { form_name: 'Botox consent', signed_at: '2026-05-01T09:30:00-04:00' } }),
      201,
    ).body.data;
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      medspa_id: scene.practice.medspaId,
      client_id: scene.client.id,
      form_name: 'Botox consent',
      signed_at: '2026-05-01T13:30:00.000Z',
      appointment_id: null,
      form_submission_id: null,
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const frontDesk = await scene.practice.tokenForRole('front_desk');
    const second = ok(
      await call('POST', url, {
        token: frontDesk,
        body: { form_name: 'Photo release', signed_at: '2026-09-01T10:00:00Z', appointment_id: appointment.id },
      }),
      201,
    ).body.data;
    expect(second.appointment_id).toBe(appointment.id);

    const listed = ok(await call('GET', url, { token: await scene.practice.tokenForRole('analyst') })).body;
    expect(listed.data).toEqual([second, first]);
    expect(listed.pagination).toEqual({ total: 2, next_cursor: null });
    const page = ok(await call('GET', `${url}?limit=1`, { token })).body;
    expect(page.data).toEqual([second]);
    expect(page.pagination.total).toBe(2);
    expect(
      ok(await call('GET', `${url}?limit=1&cursor=${encodeURIComponent(page.pagination.next_cursor)}`, { token })).body
        .data,
    ).toEqual([first]);

    const detail = ok(await call('GET', `/v1/appointments/${appointment.id}`, { token })).body.data;
    expect(detail.consent_forms).toEqual([second, first]);
    const otherClient = await makeClient(scene.practice);
    const otherAppointment = await bookFor(scene, otherClient.id, day(1));
    expect(ok(await call('GET', `/v1/appointments/${otherAppointment.id}`, { token })).body.data.consent_forms).toEqual(
      [],
    );
  });

  it('answers CLIENT_NOT_FOUND and APPOINTMENT_NOT_FOUND for ids not of this client or practice', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const body = { form_name: 'Laser consent', signed_at: '2026-05-01T09:30:00Z' };
    const other = await makePractice();
    const gone = await makeClient(scene.practice);
    ok(await call('DELETE', `/v1/clients/${gone.id}`, { token }));
    for (const [practice, id] of [
      [scene.practice, randomUUID()],
      [scene.practice, 'nope'],
      [scene.practice, gone.id],
      [other, scene.client.id],
    ] as const) {
      expectError(
        await call('POST', `/v1/clients/${id}/consents`, { token: practice.adminToken, body }),
        404,
        'CLIENT_NOT_FOUND',
      );
      expectError(
        await call('GET', `/v1/clients/${id}/consents`, { token: practice.adminToken }),
        404,
        'CLIENT_NOT_FOUND',
      );
    }

    const someoneElse = await makeClient(scene.practice);
    const theirs = await bookFor(scene, someoneElse.id, day());
    for (const appointmentId of [randomUUID(), 'nope', theirs.id]) {
      expectError(
        await call('POST', `/v1/clients/${scene.client.id}/consents`, {
          token,
          body: { ...body, appointment_id: appointmentId },
        }),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
    }
    expect(ok(await call('GET', `/v1/clients/${scene.client.id}/consents`, { token })).body.pagination.total).toBe(0);
  });

  it.each([
    ['a missing form name', { signed_at: '2026-05-01T09:30:00Z' }, 'form_name'],
    ['a blank form name', { form_name: '  ', signed_at: '2026-05-01T09:30:00Z' }, 'form_name'],
    ['a signed_at without an offset', { form_name: 'X', signed_at: '2026-05-01T09:30:00' }, 'signed_at'],
    ['a signed_at in the future', { form_name: 'X', signed_at: daysFromNow(365) }, 'signed_at'],
    ['an unknown field', { form_name: 'X', signed_at: '2026-05-01T09:30:00Z', version: 3 }, ''],
  ])('refuses %s with 400 and stores nothing', async (_label, body, path) => {
    const practice = await makePractice();
    const client = await makeClient(practice);
    const response = await call('POST', `/v1/clients/${client.id}/consents`, { token: practice.adminToken, body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.some((d: { path: string }) => d.path.startsWith(path))).toBe(true);
    expect(
      ok(await call('GET', `/v1/clients/${client.id}/consents`, { token: practice.adminToken })).body.pagination.total,
    ).toBe(0);
  });

  it('providers and analysts read consents but may not record them', async () => {
    const practice = await makePractice();
    const client = await makeClient(practice);
    for (const role of ['provider', 'analyst'] as const) {
      const token = await practice.tokenForRole(role);
      ok(await call('GET', `/v1/clients/${client.id}/consents`, { token }));
      expectError(
        await call('POST', `/v1/clients/${client.id}/consents`, {
          token,
          body: { form_name: 'X', signed_at: '2026-05-01T09:30:00Z' },
        }),
        403,
        'FORBIDDEN',
      );
    }
  });
});
