import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb, tableName } from '../../lib/db/client';
import { planSweepCheckpointKey } from '../../lib/db/keys';
import { commitLedgerEntry, findClientPlan } from '../../lib/db/plans';
import type { ContractEvent } from '../../lib/events/types';
import { cancelClientPlan, pauseClientPlan, resumeClientPlan } from '../../lib/routes/plans';
import { getClient } from '../../lib/use-cases/clients';
import { changePlanStatus, listLedger } from '../../lib/use-cases/client-plans';
import { changePractice } from '../../lib/use-cases/practice';
import { ledgerEntry } from '../../lib/use-cases/plan-bookings';
import { sweepPlans } from '../../lib/use-cases/plan-renewals';
import { makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeService } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';
import { adminCaller, belowHttp } from '../fixtures/below-http';
import { makePlan, sellPlanTo } from '../fixtures/plans';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

// Renewals and expiry (API reference, section 12; docs/decisions/0026) on DynamoDB Local: plans
// sold below HTTP with dates years ahead, sweeps at fake instants passed in, run as the sweepPlans
// function (its synthesized role enforced). The checkpoint (one per table) is cleared before each
// sweep, as each test travels in time on its own, and a first run reads the last 2 hour partitions.

// Asia/Kolkata is UTC+05:30: a local date starts at 18:30 UTC the day before, so the UTC date and
// the local date differ, and the due hour (the first whole UTC hour after local midnight) is 19:00.
const ZONE = 'Asia/Kolkata';

let practice: TestPractice;
let facial: { id: string };
let laser: { id: string };
let monthly: { id: string };
let rolling: { id: string };
let sixLaser: { id: string };

beforeAll(async () => {
  practice = await makePractice({ time_zone: ZONE });
  [facial, laser] = await Promise.all([makeService(practice), makeService(practice)]);
  [monthly, rolling, sixLaser] = await Promise.all([
    makePlan(practice, {
      kind: 'membership',
      name: 'Glow club',
      term_months: 1,
      benefits: [
        { service_id: facial.id, quantity: 2 },
        { service_id: laser.id, quantity: 1 },
      ],
    }),
    makePlan(practice, {
      kind: 'membership',
      name: 'Glow club (rollover)',
      term_months: 1,
      rollover: true,
      benefits: [{ service_id: facial.id, quantity: 2 }],
    }),
    makePlan(practice, { kind: 'package', valid_days: 30, benefits: [{ service_id: laser.id, quantity: 6 }] }),
  ]);
});

beforeEach(async () => {
  await clearCheckpoint();
});

const clearCheckpoint = () => ddb().send(new DeleteCommand({ TableName: tableName(), Key: planSweepCheckpointKey() }));

/** One first-run sweep at `iso`, as its function: the role's reads and writes are the only ones allowed. */
async function sweepAt(iso: string) {
  await clearCheckpoint();
  return runAsFunction('sweepPlans', () => sweepPlans(new Date(iso), { firstRunHours: 2 }));
}

async function sell(planId: string, startsOn: string) {
  const client = await makeClient(practice);
  return (await sellPlanTo(practice, client.id, { plan_id: planId, starts_on: startsOn })) as { id: string };
}

const read = async (id: string) => (await findClientPlan(practice.medspaId, id))!;
const balanceOf = async (id: string, serviceId: string) =>
  (await read(id)).balances.find((b) => b.service_id === serviceId)!;

const statusRoutes = { pause: pauseClientPlan, resume: resumeClientPlan, cancel: cancelClientPlan };
const statusChange = (id: string, action: 'pause' | 'resume' | 'cancel', at: string, body: object = {}) =>
  belowHttp(
    statusRoutes[action],
    adminCaller(practice),
    { params: { id }, body: action === 'cancel' ? body : undefined },
    () => changePlanStatus(practice.medspaId, id, action, body, new Date(at)),
  );

async function ledger(id: string) {
  const page = await listLedger(practice.medspaId, id, { limit: 100 });
  return page.data;
}

/** Every balance's counters add up, and the ledger's entries sum to them. */
async function expectExactLedger(id: string) {
  const [{ balances }, entries] = await Promise.all([read(id), ledger(id)]);
  for (const b of balances) {
    expect(b.granted).toBe(b.reserved + b.used + b.remaining + b.expired);
    const of = (kind: string) =>
      entries.filter((e) => e.service_id === b.service_id && e.kind === kind).reduce((sum, e) => sum + e.quantity, 0);
    expect(of('grant') + of('adjust')).toBe(b.granted);
    expect(of('expire')).toBe(b.expired);
    expect(of('reserve') - of('release') - of('use')).toBe(b.reserved);
  }
}

const planEvents = (events: ContractEvent[], id: string) =>
  events.filter((e) => e.type.startsWith('client_plan.') && (e.data.object as { id: string }).id === id);

describe('membership renewal', () => {
  it('renews on its practice-local date, not an hour before; non-rollover units expire first, reserved ones stay', async () => {
    const tap = eventTap();
    // Terms counted from Jan 31: Jan 31..Feb 27, then Feb 28..Mar 30 (Mar 31 is the third's start).
    const sold = await sell(monthly.id, '2031-01-31');
    expect((await read(sold.id)).plan.current_term).toEqual({ starts_on: '2031-01-31', ends_on: '2031-02-27' });
    // One facial booked (reserved) and one used before the term ends.
    for (const kind of ['reserve', 'reserve', 'use'] as const) {
      const balance = await balanceOf(sold.id, facial.id);
      expect((await commitLedgerEntry(balance, ledgerEntry(balance, kind, 1, new Date().toISOString())!)).ok).toBe(
        true,
      );
    }
    await tap.drain();

    // 23:30 on Feb 27 in Kolkata (18:00 UTC): still the old term.
    expect(await sweepAt('2031-02-27T18:00:30Z')).toMatchObject({ renewed: 0 });
    expect((await read(sold.id)).plan.current_term?.starts_on).toBe('2031-01-31');

    // 00:30 on Feb 28 in Kolkata (19:00 UTC, still Feb 27 in UTC): renewed.
    expect(await sweepAt('2031-02-27T19:00:30Z')).toMatchObject({ renewed: 1 });
    const { plan } = await read(sold.id);
    expect(plan.current_term).toEqual({ starts_on: '2031-02-28', ends_on: '2031-03-30' });
    expect(await balanceOf(sold.id, facial.id)).toMatchObject({
      granted: 4,
      reserved: 1,
      used: 1,
      expired: 0,
      remaining: 2,
    });
    expect(await balanceOf(sold.id, laser.id)).toMatchObject({ granted: 2, expired: 1, remaining: 1 });
    const newest = (await ledger(sold.id)).filter((e) => e.service_id === laser.id).slice(0, 2);
    expect(newest.map((e) => [e.kind, e.quantity, e.balance_after.remaining])).toEqual([
      ['grant', 1, 1],
      ['expire', 1, 0],
    ]);
    await expectExactLedger(sold.id);

    const events = planEvents(await tap.drain(), sold.id);
    expect(events.map((e) => e.type)).toEqual(['client_plan.renewed']);
    expect(events[0].data.previous).toMatchObject({ current_term: { starts_on: '2031-01-31', ends_on: '2031-02-27' } });
  });

  it('rollover: the unused units carry into the next term', async () => {
    const sold = await sell(rolling.id, '2032-03-01');
    expect(await sweepAt('2032-03-31T19:00:30Z')).toMatchObject({ renewed: 1 });
    expect((await read(sold.id)).plan.current_term).toEqual({ starts_on: '2032-04-01', ends_on: '2032-04-30' });
    expect(await balanceOf(sold.id, facial.id)).toMatchObject({ granted: 4, expired: 0, remaining: 4 });
    expect((await ledger(sold.id)).filter((e) => e.kind === 'expire')).toEqual([]);
    await expectExactLedger(sold.id);
  });

  it('a sweep run twice, or three at once, grants once', async () => {
    const sold = await sell(monthly.id, '2033-05-01');
    const due = '2033-05-31T19:00:30Z';
    const results = await Promise.all([sweepAt(due), sweepAt(due), sweepAt(due)]);
    expect(results.reduce((sum, r) => sum + r.renewed, 0)).toBe(1);
    expect((await sweepAt(due)).renewed).toBe(0);
    expect((await sweepAt('2033-05-31T21:00:30Z')).renewed).toBe(0);
    const grants = (await ledger(sold.id)).filter((e) => e.kind === 'grant' && e.service_id === facial.id);
    expect(grants).toHaveLength(2);
    expect(await balanceOf(sold.id, facial.id)).toMatchObject({ granted: 4, expired: 2, remaining: 2 });
    await expectExactLedger(sold.id);
  });

  it('a paused membership does not renew; resumed after its term ended, it renews within the hour, the current term only', async () => {
    const sold = await sell(monthly.id, '2034-01-31');
    await statusChange(sold.id, 'pause', '2034-02-10T00:00:00Z');
    expect(await sweepAt('2034-02-27T19:00:30Z')).toMatchObject({ renewed: 0 });
    expect((await read(sold.id)).plan.current_term?.starts_on).toBe('2034-01-31');

    // Resumed on May 10: the terms of Feb 28 and Mar 31 passed while paused and are never granted.
    await statusChange(sold.id, 'resume', '2034-05-10T04:20:00Z');
    expect(await sweepAt('2034-05-10T05:00:30Z')).toMatchObject({ renewed: 1 });
    expect((await read(sold.id)).plan.current_term).toEqual({ starts_on: '2034-04-30', ends_on: '2034-05-30' });
    expect((await ledger(sold.id)).filter((e) => e.kind === 'grant' && e.service_id === facial.id)).toHaveLength(2);
    await expectExactLedger(sold.id);
  });

  it('cancelled at term end: keeps its units until then, then cancelled with the units expired, no new term', async () => {
    const tap = eventTap();
    const sold = await sell(monthly.id, '2035-06-01');
    await statusChange(sold.id, 'cancel', '2035-06-05T00:00:00Z', { at_term_end: true, reason: 'moving' });
    expect((await read(sold.id)).plan.status).toBe('active');
    await tap.drain();

    const { client_id } = (await read(sold.id)).plan;
    expect(await getClient(practice.medspaId, client_id, new Date())).toMatchObject({
      membership_status: 'active',
      membership_plan_id: sold.id,
    });

    expect(await sweepAt('2035-06-30T19:00:30Z')).toMatchObject({ renewed: 0, cancelled: 1 });
    const { plan } = await read(sold.id);
    expect(plan).toMatchObject({ status: 'cancelled', current_term: { starts_on: '2035-06-01' } });
    // The client's membership fields follow in the sweep's own write, and are writable again.
    expect(await getClient(practice.medspaId, client_id, new Date())).toMatchObject({
      membership_status: 'cancelled',
      membership_plan_id: null,
    });
    expect(await balanceOf(sold.id, facial.id)).toMatchObject({ granted: 2, expired: 2, remaining: 0 });
    expect(planEvents(await tap.drain(), sold.id).map((e) => e.type)).toEqual(['client_plan.cancelled']);
    expect(await sweepAt('2035-07-31T19:00:30Z')).toMatchObject({ renewed: 0, cancelled: 0 });
    await expectExactLedger(sold.id);
  });
});

describe("a membership's end and the client's other memberships", () => {
  it('an ended plan that does not govern only checks so; the governing one hands over to the next active one', async () => {
    const client = await makeClient(practice);
    const sellOn = async (startsOn: string) =>
      ((await sellPlanTo(practice, client.id, { plan_id: monthly.id, starts_on: startsOn })) as { id: string }).id;
    const membership = async () => {
      const { membership_status, membership_plan_id } = await getClient(practice.medspaId, client.id, new Date());
      return { membership_status, membership_plan_id };
    };
    const older = await sellOn('2035-06-01');
    const governing = await sellOn('2035-06-01');
    await statusChange(older, 'cancel', '2035-06-05T00:00:00Z', { at_term_end: true });
    // The older plan ends: the client, governed by the other, stays as it is (a check, no write).
    expect(await sweepAt('2035-06-30T19:00:30Z')).toMatchObject({ cancelled: 1, renewed: 1 });
    expect(await membership()).toEqual({ membership_status: 'active', membership_plan_id: governing });

    // A newer one governs, then ends at its term's end: the one still active takes over (checked at its version).
    const newest = await sellOn('2035-07-01');
    expect(await membership()).toEqual({ membership_status: 'active', membership_plan_id: newest });
    await statusChange(newest, 'cancel', '2035-07-05T00:00:00Z', { at_term_end: true });
    expect(await sweepAt('2035-07-31T19:00:30Z')).toMatchObject({ cancelled: 1, renewed: 1 });
    expect(await membership()).toEqual({ membership_status: 'active', membership_plan_id: governing });
    for (const id of [older, governing, newest]) await expectExactLedger(id);
  });
});

describe('a practice moving west', () => {
  it('finds its plans before their local date: put back at their new hour, renewed then', async () => {
    const west = await makePractice({ time_zone: ZONE });
    const service = await makeService(west);
    const plan = await makePlan(west, {
      kind: 'membership',
      term_months: 1,
      benefits: [{ service_id: service.id, quantity: 1 }],
    });
    const client = await makeClient(west);
    const sold = await sellPlanTo(west, client.id, { plan_id: plan.id, starts_on: '2039-03-01' });
    // Armed for Apr 1 in Kolkata (Mar 31, 19:00 UTC); the practice then moves to Los Angeles (UTC-7).
    await changePractice(west.medspaId, { time_zone: 'America/Los_Angeles' }, { now: new Date() });
    expect(await sweepAt('2039-03-31T19:00:30Z')).toMatchObject({ renewed: 0, rearmed: 1 });
    expect(await sweepAt('2039-04-01T06:00:30Z')).toMatchObject({ renewed: 0, rearmed: 0 });
    expect(await sweepAt('2039-04-01T07:00:30Z')).toMatchObject({ renewed: 1 });
    expect((await findClientPlan(west.medspaId, sold.id))!.plan.current_term?.starts_on).toBe('2039-04-01');
  });
});

describe('package expiry', () => {
  it('expires its remaining units on expires_on (practice-local), status expired', async () => {
    const tap = eventTap();
    const sold = await sell(sixLaser.id, '2036-06-01');
    expect((await read(sold.id)).plan.expires_on).toBe('2036-07-01');
    await tap.drain();
    expect(await sweepAt('2036-06-30T18:00:30Z')).toMatchObject({ expired: 0 });
    expect(await sweepAt('2036-06-30T19:00:30Z')).toMatchObject({ expired: 1 });
    expect((await read(sold.id)).plan.status).toBe('expired');
    expect(await balanceOf(sold.id, laser.id)).toMatchObject({ granted: 6, expired: 6, remaining: 0 });
    expect(planEvents(await tap.drain(), sold.id).map((e) => e.type)).toEqual(['client_plan.expired']);
    await expectExactLedger(sold.id);
  });
});

describe('what the sweep reads', () => {
  it('only what is due: one Query per hour partition, one per due plan, its practice and plan once, one transaction each', async () => {
    const [a, b] = await Promise.all([sell(monthly.id, '2037-08-01'), sell(monthly.id, '2037-08-01')]);
    // Sold the same day but due a month later: on the index, never read by this sweep.
    const later = await sell(monthly.id, '2037-09-01');
    // A run two hours on reads from its checkpoint.
    await sweepAt('2037-08-31T17:00:30Z');
    // (No look-back here, so the window is exactly the hours after the checkpoint.)
    const { result, calls } = await counted(() =>
      runAsFunction('sweepPlans', () => sweepPlans(new Date('2037-08-31T19:00:30Z'), { lookbackHours: 0 })),
    );
    expect(result).toMatchObject({ renewed: 2, from: '2037-08-31T18', through: '2037-08-31T19' });
    expect(calls).toEqual({
      // 2 hour partitions of the index + the 2 due plans' partitions.
      QueryCommand: 4,
      // The checkpoint, the practice, the plan sold.
      GetItemCommand: 3,
      TransactWriteItemsCommand: 2,
      // The checkpoint moved.
      PutItemCommand: 1,
    });
    expect((await read(a.id)).plan.current_term?.starts_on).toBe('2037-09-01');
    expect((await read(b.id)).plan.current_term?.starts_on).toBe('2037-09-01');
    expect((await read(later.id)).plan.current_term?.starts_on).toBe('2037-09-01');
  });

  it('its role is all it may use: another function reading the due index is refused', async () => {
    await expect(runAsFunction('sweepReminders', () => sweepPlans(new Date('2038-01-01T00:00:30Z')))).rejects.toThrow(
      /AccessDenied|not authorized/i,
    );
  });
});
