import { beforeAll, describe, expect, it } from 'vitest';
import { counted } from '../fixtures/ddb-calls';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeService } from '../fixtures/builders';
import { makePlan, sellPlanTo } from '../fixtures/plans';

/** Plans, a client's plans, the ledger and adjustments (API reference, section 12). */

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

let practice: TestPractice;
let laser: { id: string };
let facial: { id: string };

beforeAll(async () => {
  practice = await makePractice();
  [laser, facial] = await Promise.all([makeService(practice), makeService(practice)]);
});

const as = (token: string) => ({ token });

describe('plans', () => {
  it('creates, reads, changes and lists plans by kind and active', async () => {
    const created = await call('POST', '/v1/plans', {
      ...as(practice.adminToken),
      body: {
        kind: 'package',
        name: 'Laser x6',
        price_cents: 120000,
        benefits: [{ service_id: laser.id, quantity: 6 }],
        valid_days: 365,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      kind: 'package',
      benefits: [{ service_id: laser.id, quantity: 6 }],
      term_months: null,
      valid_days: 365,
      rollover: false,
      active: true,
      version: 1,
    });
    const id = created.body.data.id;
    const membership = await makePlan(practice, {
      kind: 'membership',
      name: 'Glow club',
      term_months: 1,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    });

    const patched = await call('PATCH', `/v1/plans/${id}`, {
      ...as(practice.adminToken),
      body: { name: 'Laser six', active: false },
    });
    expect(patched.body.data).toMatchObject({ name: 'Laser six', active: false, version: 2 });
    expectError(
      await call('PATCH', `/v1/plans/${id}`, { ...as(practice.adminToken), body: { benefits: [] } }),
      400,
      'VALIDATION_ERROR',
    );
    expect((await call('GET', `/v1/plans/${id}`, as(practice.adminToken))).body.data.name).toBe('Laser six');

    const ids = async (query: string) =>
      (await call('GET', `/v1/plans?${query}`, as(practice.adminToken))).body.data.map((p: { id: string }) => p.id);
    expect(await ids('kind=membership')).toEqual([membership.id]);
    expect(await ids('active=false')).toEqual([id]);
    expect((await ids('')).sort()).toEqual([id, membership.id].sort());
  });

  it('refuses terms that do not fit the kind, unknown services, unknown ids and the wrong roles', async () => {
    const body = {
      kind: 'membership',
      name: 'Club',
      price_cents: 9900,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    };
    const post = (b: object, token = practice.adminToken) => call('POST', '/v1/plans', { token, body: b });
    expectError(await post(body), 400, 'VALIDATION_ERROR');
    expectError(await post({ ...body, kind: 'package', term_months: 1 }), 400, 'VALIDATION_ERROR');
    expectError(
      await post({
        ...body,
        term_months: 1,
        benefits: [
          { service_id: laser.id, quantity: 1 },
          { service_id: laser.id, quantity: 2 },
        ],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await post({ ...body, term_months: 1, benefits: [{ service_id: crypto.randomUUID(), quantity: 1 }] }),
      404,
      'SERVICE_NOT_FOUND',
    );
    expectError(await call('GET', `/v1/plans/${crypto.randomUUID()}`, as(practice.adminToken)), 404, 'PLAN_NOT_FOUND');
    expectError(await call('GET', '/v1/plans/nope', as(practice.adminToken)), 404, 'PLAN_NOT_FOUND');
    const [frontDesk, provider] = await Promise.all([
      practice.tokenForRole('front_desk'),
      practice.tokenForRole('provider'),
    ]);
    expectError(await post({ ...body, term_months: 1 }, frontDesk), 403, 'FORBIDDEN');
    expectError(await call('GET', '/v1/plans', as(provider)), 403, 'FORBIDDEN');
    expect((await call('GET', '/v1/plans', as(frontDesk))).status).toBe(200);
  });
});

describe("a client's plans", () => {
  it('sells with its payment in one write, and lists and reads it with balances', async () => {
    const client = await makeClient(practice);
    const plan = await makePlan(practice, {
      kind: 'package',
      valid_days: 30,
      benefits: [
        { service_id: laser.id, quantity: 6 },
        { service_id: facial.id, quantity: 1 },
      ],
    });
    const sold = await call('POST', `/v1/clients/${client.id}/plans`, {
      ...as(practice.adminToken),
      body: { plan_id: plan.id, starts_on: '2026-12-01', payment: { amount_cents: 60000, method: 'card' } },
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.data).toMatchObject({
      client_id: client.id,
      plan_id: plan.id,
      kind: 'package',
      status: 'active',
      starts_on: '2026-12-01',
      current_term: null,
      expires_on: '2026-12-31',
      balances: [
        { service_id: laser.id, granted: 6, reserved: 0, used: 0, expired: 0, remaining: 6 },
        { service_id: facial.id, granted: 1, reserved: 0, used: 0, expired: 0, remaining: 1 },
      ],
    });
    const id = sold.body.data.id;
    expect((await call('GET', `/v1/client-plans/${id}`, as(practice.adminToken))).body.data).toEqual(sold.body.data);
    const listed = await call('GET', `/v1/clients/${client.id}/plans`, as(practice.adminToken));
    expect(listed.body.data).toEqual([sold.body.data]);
    const payments = await call('GET', `/v1/payments?client_id=${client.id}`, as(practice.adminToken));
    expect(payments.body.data).toMatchObject([{ kind: 'plan', amount_cents: 60000, appointment_id: null }]);
    const ledger = await call('GET', `/v1/client-plans/${id}/ledger`, as(practice.adminToken));
    expect(ledger.body.data.map((e: any) => [e.kind, e.quantity, e.balance_after.remaining]).sort()).toEqual([
      ['grant', 1, 1],
      ['grant', 6, 6],
    ]);
  });

  it('a membership has a term; a retired plan, an unknown plan or client is refused and nothing is written', async () => {
    const client = await makeClient(practice);
    const club = await makePlan(practice, {
      kind: 'membership',
      term_months: 1,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    });
    const sold = await sellPlanTo(practice, client.id, { plan_id: club.id, starts_on: '2027-01-31' });
    expect(sold).toMatchObject({ current_term: { starts_on: '2027-01-31', ends_on: '2027-02-27' }, expires_on: null });
    const retired = await makePlan(practice, {
      kind: 'package',
      active: false,
      benefits: [{ service_id: facial.id, quantity: 1 }],
    });
    const sell = (clientId: string, planId: string) =>
      call('POST', `/v1/clients/${clientId}/plans`, { ...as(practice.adminToken), body: { plan_id: planId } });
    expectError(await sell(client.id, retired.id), 409, 'PLAN_NOT_ACTIVE');
    expectError(await sell(client.id, crypto.randomUUID()), 404, 'PLAN_NOT_FOUND');
    expectError(await sell(crypto.randomUUID(), club.id), 404, 'CLIENT_NOT_FOUND');
    expect((await call('GET', `/v1/clients/${client.id}/plans`, as(practice.adminToken))).body.data).toHaveLength(1);
    expectError(
      await call('GET', `/v1/client-plans/${crypto.randomUUID()}`, as(practice.adminToken)),
      404,
      'CLIENT_PLAN_NOT_FOUND',
    );
  });

  it('pauses, resumes and cancels (admin, manager), refusing other transitions', async () => {
    const client = await makeClient(practice);
    const club = await makePlan(practice, {
      kind: 'membership',
      term_months: 3,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    });
    const { id } = await sellPlanTo(practice, client.id, { plan_id: club.id });
    const act = (action: string, body?: object, token = practice.adminToken) =>
      call('POST', `/v1/client-plans/${id}/${action}`, { token, body });
    const frontDesk = await practice.tokenForRole('front_desk');
    expectError(await act('pause', undefined, frontDesk), 403, 'FORBIDDEN');
    expectError(await act('resume'), 409, 'INVALID_STATUS_TRANSITION');
    expect((await act('pause')).body.data).toMatchObject({ status: 'paused', version: 2 });
    expect((await act('resume')).body.data).toMatchObject({ status: 'active', version: 3 });
    expect((await act('cancel', { at_term_end: true })).body.data.status).toBe('active');
    expect((await act('cancel', { reason: 'Moved away' })).body.data.status).toBe('cancelled');
    expectError(await act('pause'), 409, 'INVALID_STATUS_TRANSITION');
  });

  it('a pause commits its audit entry and Idempotency-Key mark in its own transaction: a retry replays it, no second entry', async () => {
    const client = await makeClient(practice);
    const pack = await makePlan(practice, { kind: 'package', benefits: [{ service_id: facial.id, quantity: 2 }] });
    const { id } = await sellPlanTo(practice, client.id, { plan_id: pack.id });
    const pause = () =>
      call('POST', `/v1/client-plans/${id}/pause`, {
        token: practice.adminToken,
        headers: { 'idempotency-key': `pause-${id}` },
      });
    const { result: first, calls } = await counted(pause);
    expect(first.status).toBe(200);
    // One transaction: the plan, its audit entry and the key's mark (no write after it but the answer kept).
    expect(calls.TransactWriteItemsCommand).toBe(1);
    expect(calls.PutItemCommand ?? 0).toBe(1); // the key's claim, before
    const again = await pause();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    const log = await call('GET', '/v1/audit-log', { token: practice.adminToken });
    expect(log.body.data.filter((entry: { resource_id: string }) => entry.resource_id === id)).toHaveLength(1);
  });
});

describe('the ledger', () => {
  it('adjusts never below zero; concurrent adjustments sum exactly with exact balance_after', async () => {
    const client = await makeClient(practice);
    const plan = await makePlan(practice, { kind: 'package', benefits: [{ service_id: laser.id, quantity: 5 }] });
    const { id } = await sellPlanTo(practice, client.id, { plan_id: plan.id });
    const adjust = (delta: number, serviceId = laser.id) =>
      call('POST', `/v1/client-plans/${id}/adjustments`, {
        ...as(practice.adminToken),
        body: { service_id: serviceId, delta, reason: 'correction' },
      });
    expectError(await adjust(-6), 409, 'ENTITLEMENT_EXHAUSTED');
    expectError(await adjust(1, facial.id), 422, 'PLAN_NOT_APPLICABLE');
    const takes = await Promise.all(Array.from({ length: 8 }, () => adjust(-1)));
    expect(takes.filter((r) => r.status === 201)).toHaveLength(5);
    expect(takes.filter((r) => r.status === 409).every((r) => r.body.error.code === 'ENTITLEMENT_EXHAUSTED')).toBe(
      true,
    );
    const remainders = takes.filter((r) => r.status === 201).map((r) => r.body.data.balance_after.remaining);
    expect(remainders.sort()).toEqual([0, 1, 2, 3, 4]);
    expect((await adjust(2)).body.data).toMatchObject({
      kind: 'adjust',
      quantity: 2,
      reason: 'correction',
      balance_after: { remaining: 2 },
    });

    const balance = (await call('GET', `/v1/client-plans/${id}`, as(practice.adminToken))).body.data.balances[0];
    expect(balance).toMatchObject({ granted: 2, remaining: 2, reserved: 0, used: 0, expired: 0 });
    // Newest first, two pages: every entry once, and the deltas sum to the balance.
    const first = await call('GET', `/v1/client-plans/${id}/ledger?limit=4`, as(practice.adminToken));
    const second = await call(
      'GET',
      `/v1/client-plans/${id}/ledger?limit=4&cursor=${first.body.pagination.next_cursor}`,
      as(practice.adminToken),
    );
    const entries = [...first.body.data, ...second.body.data];
    expect(first.body.pagination.total).toBe(7);
    expect(new Set(entries.map((e: any) => e.id)).size).toBe(7);
    expect(entries[0]).toMatchObject({ kind: 'adjust', quantity: 2 });
    expect(entries.reduce((sum: number, e: any) => sum + e.quantity, 0)).toBe(2);
  });
});
