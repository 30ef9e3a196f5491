import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddbCalls } from '../../lib/db/client';
import { createPayment } from '../../lib/use-cases/payments';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { addDays, at, firstOfMonth, lastOfMonth, monthOf, NY, todayIn } from '../fixtures/dates';
import { booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
};

const pay = (practice: TestPractice, body: Record<string, unknown>, token = practice.adminToken) =>
  call('POST', '/v1/payments', { token, body });

const spentBy = async (practice: TestPractice, clientId: string) => {
  const response = await call('GET', `/v1/clients/${clientId}`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.total_spent_cents as number;
};

const listIds = async (practice: TestPractice, query: string) => {
  const response = await call('GET', `/v1/payments?${query}`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ids: response.body.data.map((p: { id: string }) => p.id) as string[], pagination: response.body.pagination };
};

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
});

describe('recording a payment', () => {
  it("answers 201 with the practice's currency and raises the client's total_spent_cents in the same write", async () => {
    const client = await makeClient(scene.practice);
    const response = await pay(scene.practice, { client_id: client.id, amount_cents: 5000, method: 'card' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const payment = response.body.data;
    expect(payment).toEqual({
      id: expect.stringMatching(UUID),
      medspa_id: scene.practice.medspaId,
      client_id: client.id,
      appointment_id: null,
      amount_cents: 5000,
      currency: 'USD',
      method: 'card',
      note: null,
      kind: 'payment',
      reference: null,
      version: 1,
      created_at: expect.any(String),
    });
    expect(new Date(payment.created_at).toISOString()).toBe(payment.created_at);
    expect(await spentBy(scene.practice, client.id)).toBe(5000);

    expect(
      (await pay(scene.practice, { client_id: client.id, amount_cents: 2500, method: 'cash', note: 'Tip included' }))
        .body.data.note,
    ).toBe('Tip included');
    expect(await spentBy(scene.practice, client.id)).toBe(7500);

    const got = await call('GET', `/v1/payments/${payment.id}`, { token: scene.practice.adminToken });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(payment);
  });

  it("links an appointment of the client; another client's, an unknown or a malformed one is 404 APPOINTMENT_NOT_FOUND", async () => {
    const appointment = await booked(scene);
    const linked = await pay(scene.practice, {
      client_id: scene.client.id,
      appointment_id: appointment.id,
      amount_cents: 25000,
      method: 'gift_card',
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    expect(linked.body.data.appointment_id).toBe(appointment.id);

    const other = await makeClient(scene.practice);
    for (const appointmentId of [appointment.id, randomUUID(), 'nope']) {
      expectError(
        await pay(scene.practice, {
          client_id: other.id,
          appointment_id: appointmentId,
          amount_cents: 100,
          method: 'card',
        }),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
    }
    expect(await spentBy(scene.practice, other.id)).toBe(0);
    expect((await listIds(scene.practice, `client_id=${other.id}`)).ids).toEqual([]);
  });

  it('an unknown, malformed or deleted client is 404 CLIENT_NOT_FOUND and nothing is recorded', async () => {
    const gone = await makeClient(scene.practice);
    expect((await call('DELETE', `/v1/clients/${gone.id}`, { token: scene.practice.adminToken })).status).toBe(200);
    for (const clientId of [randomUUID(), 'not-a-uuid', gone.id]) {
      expectError(
        await pay(scene.practice, { client_id: clientId, amount_cents: 100, method: 'cash' }),
        404,
        'CLIENT_NOT_FOUND',
      );
      expect((await listIds(scene.practice, `client_id=${clientId}`)).ids).toEqual([]);
    }
    // The client's 404 comes first (API reference, errors's order).
    expectError(
      await pay(scene.practice, {
        client_id: randomUUID(),
        appointment_id: randomUUID(),
        amount_cents: 100,
        method: 'cash',
      }),
      404,
      'CLIENT_NOT_FOUND',
    );
  });

  it.each([
    ['a zero amount', { amount_cents: 0 }, 'amount_cents'],
    ['a negative amount', { amount_cents: -100 }, 'amount_cents'],
    ['a fractional amount', { amount_cents: 10.5 }, 'amount_cents'],
    ['an unknown method', { method: 'bitcoin' }, 'method'],
    ['a missing client', { client_id: undefined }, 'client_id'],
    ['an unknown field', { tip_cents: 5 }, 'tip_cents'],
  ])('rejects %s with 400 VALIDATION_ERROR', async (_label, overrides, path) => {
    const client = await makeClient(scene.practice);
    const response = await pay(scene.practice, {
      client_id: client.id,
      amount_cents: 1000,
      method: 'card',
      ...overrides,
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await spentBy(scene.practice, client.id)).toBe(0);
  });

  it('GET of an unknown or malformed id is 404 PAYMENT_NOT_FOUND', async () => {
    for (const id of [randomUUID(), 'not-a-uuid'])
      expectError(
        await call('GET', `/v1/payments/${id}`, { token: scene.practice.adminToken }),
        404,
        'PAYMENT_NOT_FOUND',
      );
  });
});

describe('listing payments', () => {
  // America/New_York; created through the use case at chosen instants around a month end weeks
  // ahead (future-dated, so outside the default range that ends today).
  const MONTH_END = lastOfMonth(addDays(todayIn(NY), 14));
  const NEXT = addDays(MONTH_END, 1);
  const [DAY_BEFORE, SECOND] = [addDays(MONTH_END, -1), addDays(NEXT, 1)];
  const BOTH_MONTHS = `from=${firstOfMonth(MONTH_END)}&to=${lastOfMonth(NEXT)}`;
  let practice: TestPractice;
  let alice: { id: string };
  let bob: { id: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    practice = await makePractice({ time_zone: 'America/New_York' });
    [alice, bob] = [await makeClient(practice), await makeClient(practice)];
    const payAt = async (name: string, client: { id: string }, instant: string) => {
      ids[name] = (
        await createPayment(
          practice.medspaId,
          { client_id: client.id, amount_cents: 1000, method: 'card' },
          new Date(instant),
        )
      ).id;
    };
    await payAt('p1', alice, at(DAY_BEFORE, '11:00')); // local day before the month end
    await payAt('p2', bob, at(MONTH_END, '22:00')); // local month end 22:00 (UTC: the next month)
    await payAt('p3', alice, at(NEXT, '10:00')); // local first of the next month
    await payAt('p4', bob, at(SECOND, '01:00')); // local second of the next month, 01:00
  });

  it('by practice-local date range, inclusive, newest first, across UTC month partitions', async () => {
    expect(await listIds(practice, `from=${MONTH_END}&to=${NEXT}`)).toEqual({
      ids: [ids.p3, ids.p2],
      pagination: { total: 2, next_cursor: null },
    });
    expect((await listIds(practice, `from=${DAY_BEFORE}&to=${DAY_BEFORE}`)).ids).toEqual([ids.p1]);
    expect((await listIds(practice, `from=${SECOND}&to=${lastOfMonth(NEXT)}`)).ids).toEqual([ids.p4]);
  });

  it('pages without gaps or duplicates, with the total on every page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listIds>> = await listIds(
        practice,
        `${BOTH_MONTHS}&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.pagination.total).toBe(4);
      seen.push(...page.ids);
      cursor = page.pagination.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual([ids.p4, ids.p3, ids.p2, ids.p1]);
  });

  it('by client (all, or within dates), newest first', async () => {
    expect(await listIds(practice, `client_id=${alice.id}`)).toEqual({
      ids: [ids.p3, ids.p1],
      pagination: { total: 2, next_cursor: null },
    });
    expect((await listIds(practice, `client_id=${bob.id}&from=${MONTH_END}&to=${MONTH_END}`)).ids).toEqual([ids.p2]);
    expect((await listIds(practice, `client_id=${alice.id}&from=${NEXT}&to=${lastOfMonth(NEXT)}`)).ids).toEqual([
      ids.p3,
    ]);
  });

  it('without dates: the 31 days up to today (new payments in, the future-dated ones out)', async () => {
    const today = await pay(practice, { client_id: alice.id, amount_cents: 700, method: 'other' });
    expect((await listIds(practice, '')).ids).toEqual([today.body.data.id]);
  });

  it('rejects a reversed range, a range over a year and a forged cursor', async () => {
    expectError(
      await call('GET', `/v1/payments?from=${addDays(NEXT, 9)}&to=${NEXT}`, { token: practice.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('GET', `/v1/payments?from=${addDays(NEXT, -517)}&to=${NEXT}`, { token: practice.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
    const month = monthOf(NEXT);
    const forged = Buffer.from(JSON.stringify({ month, key: { gsi1pk: `P#someone-else#PAYMENTS#${month}` } })).toString(
      'base64url',
    );
    expectError(
      await call('GET', `/v1/payments?from=${NEXT}&to=${lastOfMonth(NEXT)}&cursor=${forged}`, {
        token: practice.adminToken,
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it("never shows another practice's payments", async () => {
    const other = await makePractice();
    expect((await listIds(other, BOTH_MONTHS)).pagination.total).toBe(0);
    expect((await listIds(other, `client_id=${alice.id}`)).pagination.total).toBe(0);
    expectError(await call('GET', `/v1/payments/${ids.p1}`, { token: other.adminToken }), 404, 'PAYMENT_NOT_FOUND');
    expectError(await pay(other, { client_id: alice.id, amount_cents: 100, method: 'card' }), 404, 'CLIENT_NOT_FOUND');
  });
});

describe('roles', () => {
  it('front desk records and reads; analyst reads only; provider neither', async () => {
    const client = await makeClient(scene.practice);
    const frontDesk = await scene.practice.tokenForRole('front_desk');
    const created = await pay(scene.practice, { client_id: client.id, amount_cents: 900, method: 'cash' }, frontDesk);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await call('GET', `/v1/payments/${created.body.data.id}`, { token: frontDesk })).status).toBe(200);

    const analyst = await scene.practice.tokenForRole('analyst');
    expect((await call('GET', `/v1/payments?client_id=${client.id}`, { token: analyst })).body.pagination.total).toBe(
      1,
    );
    expectError(
      await pay(scene.practice, { client_id: client.id, amount_cents: 900, method: 'cash' }, analyst),
      403,
      'FORBIDDEN',
    );

    const provider = await scene.practice.tokenForRole('provider');
    expectError(await call('GET', '/v1/payments', { token: provider }), 403, 'FORBIDDEN');
    expectError(await call('GET', `/v1/payments/${created.body.data.id}`, { token: provider }), 403, 'FORBIDDEN');
    expectError(
      await pay(scene.practice, { client_id: client.id, amount_cents: 900, method: 'cash' }, provider),
      403,
      'FORBIDDEN',
    );
    expect(await spentBy(scene.practice, client.id)).toBe(900);
  });
});

describe('DynamoDB calls', () => {
  it('a payment is one read (the practice) and one transaction, with or without an appointment', async () => {
    const appointment = await booked(scene, { scheduled_at: nyTime(addDays(BOOKING_DAY, 1), '10:00') });
    for (const appointmentId of [undefined, appointment.id]) {
      ddbCalls.reset();
      await createPayment(
        scene.practice.medspaId,
        { client_id: scene.client.id, appointment_id: appointmentId, amount_cents: 100, method: 'card' },
        new Date(),
      );
      expect(Object.fromEntries(ddbCalls.counts)).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    }
  });
});
