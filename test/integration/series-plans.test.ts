import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { changePractice } from '../../lib/use-cases/practice';
import { call } from '../fixtures/api';
import { makeClient, makeProvider, makeService } from '../fixtures/builders';
import { addDays } from '../fixtures/dates';
import { makePlan, sellPlanTo } from '../fixtures/plans';
import { BOOKING_DAY, booked, claimItems, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * A series against a client plan (API reference, sections 12 and series): one unit per occurrence
 * reserved in the series' one commit, or nothing booked and nothing reserved.
 */

const occurrence = (index: number, hhmm = '10:00') => nyTime(addDays(BOOKING_DAY, index * 7), hhmm);
const token = (scene: Scene) => scene.practice.adminToken;
const createSeries = (scene: Scene, body: Record<string, unknown>) =>
  call('POST', '/v1/appointment-series', {
    token: token(scene),
    body: {
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      scheduled_at: occurrence(0),
      every_days: 7,
      ...body,
    },
  });
const sell = async (scene: Scene, quantity: number, serviceId = scene.service.id, clientId = scene.client.id) => {
  const plan = await makePlan(scene.practice, { kind: 'package', benefits: [{ service_id: serviceId, quantity }] });
  return (await sellPlanTo(scene.practice, clientId, { plan_id: plan.id })).id as string;
};
const clientPlan = async (scene: Scene, id: string) =>
  (await call('GET', `/v1/client-plans/${id}`, { token: token(scene) })).body.data;
const ledger = async (scene: Scene, id: string) =>
  (await call('GET', `/v1/client-plans/${id}/ledger?limit=100`, { token: token(scene) })).body.data as {
    kind: string;
    appointment_id: string | null;
    balance_after: { reserved: number; used: number; remaining: number };
  }[];
const clientAppointments = async (scene: Scene) =>
  (
    await call(
      'GET',
      `/v1/appointments?client_id=${scene.client.id}&from=${BOOKING_DAY}&to=${addDays(BOOKING_DAY, 120)}&limit=100`,
      { token: token(scene) },
    )
  ).body.data as { id: string }[];
const seriesEntries = async (scene: Scene) =>
  (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).flatMap((bucket) =>
    Object.values(bucket.entries).filter((entry) => 'series_id' in entry),
  );
const codeOf = (answer: { status: number; body: { error?: { code: string } } }) =>
  answer.status < 300 ? answer.status : answer.body.error?.code;

afterEach(() => setClock(null));

describe('a series against a plan', () => {
  it('12 occurrences reserve exactly 12 units in the one commit (28 actions), each at price 0 asking no deposit; the series cancel releases them', async () => {
    const scene = await makeScene();
    // A fixed deposit that a plan-booked occurrence must not ask; a buffer widens each occurrence's claims.
    const laser = await makeService(scene.practice, {
      provider_ids: [scene.provider.id],
      duration_minutes: 45,
      buffer_after_minutes: 15,
      price_cents: 40_000,
      deposit: { type: 'fixed', value: 5000 },
    });
    const planId = await sell(scene, 12, laser.id);
    const created = await createSeries(scene, {
      service_id: laser.id,
      count: 12,
      client_plan_id: planId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const appointments = created.body.data.appointments as { id: string }[];
    expect(appointments).toHaveLength(12);
    for (const appointment of appointments)
      expect(appointment).toMatchObject({ client_plan_id: planId, price_cents: 0, deposit_required_cents: 0 });

    expect((await clientPlan(scene, planId)).balances).toEqual([
      { service_id: laser.id, granted: 12, reserved: 12, used: 0, expired: 0, remaining: 0 },
    ]);
    // One reserve entry per occurrence, newest first in the order they apply: each balance_after exact.
    const reserves = (await ledger(scene, planId)).filter((entry) => entry.kind === 'reserve');
    expect(reserves.map((entry) => entry.appointment_id)).toEqual(appointments.map((a) => a.id).reverse());
    expect(reserves.map((entry) => entry.balance_after)).toEqual(
      Array.from({ length: 12 }, (_, i) => ({ reserved: 12 - i, used: 0, remaining: i })),
    );

    // Every occurrence is weeks ahead, outside any late window: each cancel releases its unit.
    const cancelled = await call('POST', `/v1/appointment-series/${created.body.data.id}/cancel`, {
      token: token(scene),
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await clientPlan(scene, planId)).balances[0]).toMatchObject({ reserved: 0, used: 0, remaining: 12 });
    expect((await ledger(scene, planId)).filter((entry) => entry.kind === 'release')).toHaveLength(12);
  });

  it("a series cancel inside the policy's late window uses the units instead (the fee rules of a plan booking)", async () => {
    const scene = await makeScene();
    await changePractice(
      scene.practice.medspaId,
      {
        cancellation_policy: {
          late_cancel_minutes: 10_080,
          late_cancel_fee: { type: 'fixed', value: 5000 },
          no_show_fee: { type: 'fixed', value: 5000 },
        },
      },
      { now: new Date() },
    );
    const planId = await sell(scene, 2);
    const created = await createSeries(scene, { count: 2, every_days: 1, client_plan_id: planId });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The day before the first occurrence: both inside the 7-day window.
    setClock(() => new Date(Date.parse(occurrence(0)) - 86_400_000));
    const cancelled = await call('POST', `/v1/appointment-series/${created.body.data.id}/cancel`, {
      token: token(scene),
      body: {},
    });
    expect(cancelled.body.data.appointments.map((a: { fees: unknown[] }) => a.fees)).toEqual([[], []]);
    expect((await clientPlan(scene, planId)).balances[0]).toMatchObject({ reserved: 0, used: 2, remaining: 0 });
  });

  it("fewer units than occurrences: 409 ENTITLEMENT_EXHAUSTED (not SERIES_CONFLICT), nothing booked, nothing reserved; the plan's errors in create's order", async () => {
    const scene = await makeScene();
    const planId = await sell(scene, 3);
    const other = await makeClient(scene.practice);
    const othersPlan = await sell(scene, 4, scene.service.id, other.id);
    const uncertified = await makeProvider(scene.practice);
    // A taken occurrence too: the plan is checked before the time (right after PROVIDER_NOT_CERTIFIED).
    await booked(scene, { scheduled_at: occurrence(2) });
    const code = async (body: Record<string, unknown>) => codeOf(await createSeries(scene, { count: 4, ...body }));

    expect(await code({ provider_id: uncertified.id, client_plan_id: planId })).toBe('PROVIDER_NOT_CERTIFIED');
    expect(await code({ client_plan_id: crypto.randomUUID() })).toBe('CLIENT_PLAN_NOT_FOUND');
    expect(await code({ client_plan_id: othersPlan })).toBe('PLAN_NOT_APPLICABLE');
    const refused = await createSeries(scene, { count: 4, client_plan_id: planId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'ENTITLEMENT_EXHAUSTED' });
    expect(refused.body.error.message).toContain('4 units');
    // Without the taken occurrence, 3 units for 4 occurrences is the same refusal.
    expect(await code({ scheduled_at: occurrence(3), client_plan_id: planId })).toBe('ENTITLEMENT_EXHAUSTED');

    expect((await clientPlan(scene, planId)).balances[0]).toMatchObject({ granted: 3, reserved: 0, remaining: 3 });
    expect((await ledger(scene, planId)).map((entry) => entry.kind)).toEqual(['grant']);
    expect(await clientAppointments(scene)).toHaveLength(1);
    expect(await seriesEntries(scene)).toEqual([]);

    expect((await call('POST', `/v1/client-plans/${planId}/pause`, { token: token(scene) })).status).toBe(200);
    expect(await code({ count: 2, scheduled_at: occurrence(3), client_plan_id: planId })).toBe('PLAN_NOT_ACTIVE');
  });

  it('5 parallel series of 3 against a plan with 3 units: exactly one books, the others reserve and leave nothing', async () => {
    const scene = await makeScene();
    const planId = await sell(scene, 3);
    // Each series at its own hour: the plan's units are the only thing they race for.
    const answers = await Promise.all(
      ['09:00', '11:00', '13:00', '14:00', '15:00'].map((hhmm) =>
        createSeries(scene, { count: 3, scheduled_at: occurrence(0, hhmm), client_plan_id: planId }),
      ),
    );
    expect(answers.map(codeOf).sort()).toEqual([201, ...Array(4).fill('ENTITLEMENT_EXHAUSTED')].sort());
    const won = answers.find((answer) => answer.status === 201)!.body.data.appointments as { id: string }[];
    expect((await clientPlan(scene, planId)).balances[0]).toMatchObject({ reserved: 3, remaining: 0 });
    const reserves = (await ledger(scene, planId)).filter((entry) => entry.kind === 'reserve');
    expect(reserves.map((entry) => entry.appointment_id).sort()).toEqual(won.map((a) => a.id).sort());
    expect(await clientAppointments(scene)).toHaveLength(3);
    // The losers' pending claims were taken back: their times are free at once.
    expect(await seriesEntries(scene)).toEqual([]);
  });

  it("a series and 4 single bookings racing for a plan with units for all: every one books, each entry's balance_after exact", async () => {
    const scene = await makeScene();
    const planId = await sell(scene, 7);
    const single = (hhmm: string) =>
      call('POST', '/v1/appointments', {
        token: token(scene),
        body: {
          client_id: scene.client.id,
          service_id: scene.service.id,
          provider_id: scene.provider.id,
          scheduled_at: occurrence(0, hhmm),
          client_plan_id: planId,
        },
      });
    // A booking that lands between the series' read of the plan and its commit moves the balance's
    // version: the series reads the plan again and commits on what is left.
    const answers = await Promise.all([
      createSeries(scene, { count: 3, client_plan_id: planId }),
      ...['12:00', '13:00', '14:00', '15:00'].map(single),
    ]);
    expect(answers.map(codeOf)).toEqual([201, 201, 201, 201, 201]);
    expect((await clientPlan(scene, planId)).balances[0]).toMatchObject({ reserved: 7, remaining: 0 });
    const entries = await ledger(scene, planId);
    // Each balance_after exact: every remaining count from the grant's 7 down to 0, once each.
    expect(entries.map((entry) => entry.balance_after.remaining).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The series' own entries (one write) list newest first in the order they applied.
    const series = new Set((answers[0]!.body.data.appointments as { id: string }[]).map((a) => a.id));
    const own = entries.filter((entry) => series.has(entry.appointment_id!));
    const lowest = Math.min(...own.map((entry) => entry.balance_after.remaining));
    expect(own.map((entry) => entry.balance_after.remaining)).toEqual([lowest, lowest + 1, lowest + 2]);
  });
});
