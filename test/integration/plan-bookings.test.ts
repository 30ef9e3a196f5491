import { beforeAll, describe, expect, it } from 'vitest';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeProvider, makeService } from '../fixtures/builders';
import { makePlan, sellPlanTo } from '../fixtures/plans';
import { changePractice } from '../../lib/use-cases/practice';
import { issueManageToken } from '../../lib/crypto/manage-token';
import { loadSecretKeys } from '../../lib/crypto/named-secret';
import * as publicRoutes from '../../lib/routes/public-booking';
import { cancelOnlineBooking } from '../../lib/use-cases/public-booking';
import { belowHttp } from '../fixtures/below-http';
import { makeOnlineScene } from '../fixtures/online-booking';
import { booked } from '../fixtures/scheduling';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/db/client';
import { planBalanceKey } from '../../lib/db/keys';

/** Booking against a client plan (API reference, section 12): the unit reserved in the booking's own write. */

const DAY_MS = 86_400_000;
/** 15:00 UTC (10:00 in New York, inside 9-5) `days` ahead: each its own hour, so no two ever conflict. */
const at = (days: number, hour = 15) =>
  `${new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10)}T${hour}:00:00Z`;

let practice: TestPractice;
let provider: { id: string };
let laser: { id: string };
let facial: { id: string };
let client: { id: string };

beforeAll(async () => {
  practice = await makePractice();
  provider = await makeProvider(practice);
  [laser, facial, client] = await Promise.all([
    makeService(practice, { provider_ids: [provider.id] }),
    makeService(practice, { provider_ids: [provider.id] }),
    makeClient(practice),
  ]);
});

const book = (body: Record<string, unknown>) =>
  call('POST', '/v1/appointments', {
    token: practice.adminToken,
    body: { client_id: client.id, service_id: laser.id, provider_id: provider.id, ...body },
  });

const sellLaser = async (quantity: number, to = client.id) => {
  const plan = await makePlan(practice, { kind: 'package', benefits: [{ service_id: laser.id, quantity }] });
  return (await sellPlanTo(practice, to, { plan_id: plan.id })).id as string;
};

describe('booking against a plan', () => {
  it('12 concurrent bookings against 5 units: exactly 5 succeed, the ledger sums exactly, none below zero', async () => {
    const planId = await sellLaser(5);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => book({ scheduled_at: at(2 + i), client_plan_id: planId })),
    );
    const booked = answers.filter((r) => r.status === 201);
    expect(
      booked,
      JSON.stringify(answers.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.body)),
    ).toHaveLength(5);
    expect(answers.filter((r) => r.status === 409).map((r) => r.body.error.code)).toEqual(
      Array(7).fill('ENTITLEMENT_EXHAUSTED'),
    );
    for (const r of booked)
      expect(r.body.data).toMatchObject({ price_cents: 0, client_plan_id: planId, deposit_required_cents: 0 });

    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token: practice.adminToken })).body.data;
    expect(plan.balances).toEqual([
      { service_id: laser.id, granted: 5, reserved: 5, used: 0, expired: 0, remaining: 0 },
    ]);
    const ledger = (await call('GET', `/v1/client-plans/${planId}/ledger`, { token: practice.adminToken })).body.data;
    const reserves = ledger.filter((e: any) => e.kind === 'reserve');
    expect(reserves.map((e: any) => e.appointment_id).sort()).toEqual(booked.map((r) => r.body.data.id).sort());
    expect(reserves.map((e: any) => e.balance_after.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(reserves.map((e: any) => e.balance_after.reserved).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("checks in create's order right after PROVIDER_NOT_CERTIFIED, and a refused booking reserves nothing", async () => {
    const planId = await sellLaser(1);
    const other = await makeClient(practice);
    const othersPlan = await sellLaser(1, other.id);
    const uncertified = await makeProvider(practice);
    const code = async (body: Record<string, unknown>) => (await book(body)).body.error?.code;

    expect(await code({ scheduled_at: at(20), provider_id: uncertified.id, client_plan_id: crypto.randomUUID() })).toBe(
      'PROVIDER_NOT_CERTIFIED',
    );
    expect(await code({ scheduled_at: at(20), client_plan_id: crypto.randomUUID() })).toBe('CLIENT_PLAN_NOT_FOUND');
    expect(await code({ scheduled_at: at(20), client_plan_id: othersPlan })).toBe('PLAN_NOT_APPLICABLE');
    expect(await code({ scheduled_at: at(20), service_id: facial.id, client_plan_id: planId })).toBe(
      'PLAN_NOT_APPLICABLE',
    );
    // Before the time's availability: a booking on a taken time with a bad plan is the plan's error.
    expect((await book({ scheduled_at: at(21) })).status).toBe(201);
    expect(await code({ scheduled_at: at(21), client_plan_id: crypto.randomUUID() })).toBe('CLIENT_PLAN_NOT_FOUND');
    expect(await code({ scheduled_at: at(21), client_plan_id: planId })).toBe('PROVIDER_UNAVAILABLE');

    const pause = await call('POST', `/v1/client-plans/${planId}/pause`, { token: practice.adminToken });
    expect(pause.status).toBe(200);
    expect(await code({ scheduled_at: at(22), client_plan_id: planId })).toBe('PLAN_NOT_ACTIVE');
    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token: practice.adminToken })).body.data;
    expect(plan.balances[0]).toMatchObject({ reserved: 0, remaining: 1 });
  });

  it('completion and no-show use the unit, a late cancel too unless waived; an early cancel or a delete releases it', async () => {
    // A 7-day late window, snapshotted at booking; fees are fixed amounts a plan booking never pays.
    const fee = { type: 'fixed' as const, value: 5000 };
    await changePractice(
      practice.medspaId,
      { cancellation_policy: { late_cancel_minutes: 10_080, late_cancel_fee: fee, no_show_fee: fee } },
      { now: new Date() },
    );
    const planId = await sellLaser(6);
    const days = [2, 3, 4, 40, 41, 5];
    const [done, late, waived, early, deleted, missed] = await Promise.all(
      days.map(async (d) => {
        const r = await book({ scheduled_at: at(d, 16), client_plan_id: planId });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.data.id as string;
      }),
    );
    const token = practice.adminToken;
    const status = (id: string, to: string) =>
      call('PATCH', `/v1/appointments/${id}/status`, { token, body: { status: to } });
    const cancel = (id: string, body: object = {}) => call('POST', `/v1/appointments/${id}/cancel`, { token, body });
    for (const to of ['confirmed', 'checked_in', 'in_progress', 'completed'])
      expect((await status(done, to)).status).toBe(200);
    const lateCancel = await cancel(late);
    expect(lateCancel.body.data).toMatchObject({ status: 'cancelled', fees: [] });
    expect((await cancel(waived, { waive_fee: true })).status).toBe(200);
    expect((await cancel(early)).status).toBe(200);
    expect((await call('DELETE', `/v1/appointments/${deleted}`, { token })).status).toBe(200);
    for (const to of ['confirmed', 'checked_in']) expect((await status(missed, to)).status).toBe(200);
    expect((await call('POST', `/v1/appointments/${missed}/no-show`, { token })).body.data.fees).toEqual([]);

    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token })).body.data;
    expect(plan.balances).toEqual([
      { service_id: laser.id, granted: 6, reserved: 0, used: 3, expired: 0, remaining: 3 },
    ]);
    const ledger = (await call('GET', `/v1/client-plans/${planId}/ledger`, { token })).body.data;
    const settled = (kind: string) =>
      ledger
        .filter((e: any) => e.kind === kind)
        .map((e: any) => e.appointment_id)
        .sort();
    expect(settled('use')).toEqual([done, late, missed].sort());
    expect(settled('release')).toEqual([waived, early, deleted].sort());
    expect(ledger[0].balance_after).toEqual({ reserved: 0, used: 3, remaining: 3 });
  });

  it("a client's deletion cancels their future plan bookings and gives the units back, in its own writes", async () => {
    const leaving = await makeClient(practice);
    const planId = await sellLaser(3, leaving.id);
    const token = practice.adminToken;
    const ids: string[] = [];
    for (const d of [50, 51]) {
      const r = await book({ client_id: leaving.id, scheduled_at: at(d, 17), client_plan_id: planId });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.data.id);
    }
    expect((await call('DELETE', `/v1/clients/${leaving.id}`, { token })).status).toBe(200);
    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token })).body.data;
    expect(plan.balances).toEqual([
      { service_id: laser.id, granted: 3, reserved: 0, used: 0, expired: 0, remaining: 3 },
    ]);
    const ledger = (await call('GET', `/v1/client-plans/${planId}/ledger`, { token })).body.data;
    expect(
      ledger
        .filter((e: { kind: string }) => e.kind === 'release')
        .map((e: { appointment_id: string }) => e.appointment_id)
        .sort(),
    ).toEqual(ids.sort());
  });

  it("a hold's confirm takes client_plan_id: its unit reserved in the confirm's write, price 0; an exhausted plan leaves the hold active", async () => {
    const planId = await sellLaser(1);
    const token = practice.adminToken;
    const holdAt = async (days: number) => {
      const held = await call('POST', '/v1/holds', {
        token,
        body: { service_id: laser.id, provider_id: provider.id, scheduled_at: at(days, 17) },
      });
      expect(held.status, JSON.stringify(held.body)).toBe(201);
      return held.body.data.id as string;
    };
    const confirm = (id: string) =>
      call('POST', `/v1/holds/${id}/confirm`, { token, body: { client_id: client.id, client_plan_id: planId } });
    const [first, second] = [await holdAt(50), await holdAt(51)];
    const booked = await confirm(first);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data).toMatchObject({ client_plan_id: planId, price_cents: 0, hold_id: first });
    const refused = await confirm(second);
    expect(refused.body.error?.code).toBe('ENTITLEMENT_EXHAUSTED');
    expect((await call('GET', `/v1/holds/${second}`, { token })).body.data.status).toBe('active');
    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token })).body.data;
    expect(plan.balances[0]).toMatchObject({ reserved: 1, remaining: 0 });
  });
});

describe('a plan-booked appointment asks no deposit', () => {
  it('a service with a fixed deposit: a create and a hold confirm against a plan both snapshot 0 (the hold quoted it), without a plan the deposit stands', async () => {
    const peel = await makeService(practice, { provider_ids: [provider.id], deposit: { type: 'fixed', value: 5000 } });
    const plan = await makePlan(practice, { kind: 'package', benefits: [{ service_id: peel.id, quantity: 2 }] });
    const planId = (await sellPlanTo(practice, client.id, { plan_id: plan.id })).id as string;
    const token = practice.adminToken;

    const created = await book({ service_id: peel.id, scheduled_at: at(60), client_plan_id: planId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ deposit_required_cents: 0, price_cents: 0 });
    const unplanned = await book({ service_id: peel.id, scheduled_at: at(61) });
    expect(unplanned.body.data).toMatchObject({ deposit_required_cents: 5000 });

    const held = await call('POST', '/v1/holds', {
      token,
      body: { service_id: peel.id, provider_id: provider.id, scheduled_at: at(62) },
    });
    expect(held.body.data.deposit_required_cents).toBe(5000);
    const confirmed = await call('POST', `/v1/holds/${held.body.data.id}/confirm`, {
      token,
      body: { client_id: client.id, client_plan_id: planId },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(confirmed.body.data).toMatchObject({ deposit_required_cents: 0, deposit_paid_cents: 0, price_cents: 0 });
  });
});

describe("a plan booking's manage link", () => {
  it('a staff booking made `source: online` against a plan, cancelled through its manage token (as its event hands it out), releases the unit', async () => {
    const scene = await makeOnlineScene();
    const planId = (
      await sellPlanTo(scene.practice, scene.client.id, {
        plan_id: (
          await makePlan(scene.practice, { kind: 'package', benefits: [{ service_id: scene.service.id, quantity: 1 }] })
        ).id,
      })
    ).id as string;
    const appointment = await booked(scene, { source: 'online', client_plan_id: planId });
    expect(appointment).toMatchObject({ source: 'online', client_plan_id: planId });
    // The token the appointment's events carry for an online booking (lib/events/mappings.ts).
    const token = issueManageToken({ ...appointment, medspa_id: scene.practice.medspaId });
    const cancelled = await belowHttp(
      publicRoutes.cancelPublicBooking,
      null,
      { params: { appointment_id: appointment.id }, body: {} },
      async ({ params, now, writes }) => {
        await loadSecretKeys('cursor');
        return cancelOnlineBooking(scene.practice.medspaId, params.appointment_id, token, { now, writes });
      },
    );
    expect(cancelled).toMatchObject({ appointment_id: appointment.id, status: 'cancelled' });
    const plan = (await call('GET', `/v1/client-plans/${planId}`, { token: scene.practice.adminToken })).body.data;
    expect(plan.balances[0]).toMatchObject({ reserved: 0, used: 0, remaining: 1 });
    const ledger = (await call('GET', `/v1/client-plans/${planId}/ledger`, { token: scene.practice.adminToken })).body
      .data;
    expect(ledger[0]).toMatchObject({ kind: 'release', appointment_id: appointment.id });
  });

  it('a plan booking whose balance item is gone is a data failure on its cancel (500), never a silent skip: nothing changes', async () => {
    const planId = await sellLaser(2);
    const r = await book({ scheduled_at: at(60, 16), client_plan_id: planId });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await ddb().send(
      new DeleteCommand({ TableName: tableName(), Key: planBalanceKey(practice.medspaId, planId, laser.id) }),
    );
    const cancel = await call('POST', `/v1/appointments/${r.body.data.id}/cancel`, {
      token: practice.adminToken,
      body: {},
    });
    expect(cancel.status).toBe(500);
    const after = await call('GET', `/v1/appointments/${r.body.data.id}`, { token: practice.adminToken });
    expect(after.body.data.status).toBe('scheduled');
  });
});
