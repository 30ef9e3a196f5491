import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { planLedgerCodec } from '../../lib/db/codecs';
import { planLedgerPk } from '../../lib/db/keys';
import { findClientPlan } from '../../lib/db/plans';
import { applyStep, balanceStep, emptyBalance, type Balance } from '../../lib/domain/plans';
import { isAppError } from '../../lib/errors';
import { changeStatus, deleteAppointment } from '../../lib/use-cases/appointment-status';
import { createAppointment } from '../../lib/use-cases/booking';
import { adjustBalance } from '../../lib/use-cases/client-plans';
import { changePractice } from '../../lib/use-cases/practice';
import { adminCaller } from '../fixtures/below-http';
import { makeService } from '../fixtures/builders';
import { addDays, todayIn } from '../fixtures/dates';
import { makePlan, sellPlanTo } from '../fixtures/plans';
import { makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * The plan ledger's invariants under any sequence of what moves it (API reference, section 12),
 * driven below HTTP through the use cases: book, cancel early and late (waived or not), complete,
 * no-show, delete and adjust by ±n on one plan. Each step is refused exactly when a model of the
 * rules says it would go below zero; at the end `granted = reserved + used + remaining + expired`,
 * no counter is below zero, the balance is the model's, and the ledger replayed from zero
 * reproduces it and every entry's `balance_after` on the way (so every intermediate state too).
 */

type Op =
  | { kind: 'book'; late: boolean }
  | { kind: 'cancel'; pick: number; waive: boolean }
  | { kind: 'complete'; pick: number }
  | { kind: 'no_show'; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'adjust'; delta: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('book' as const), late: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), waive: fc.boolean() }), weight: 2 },
  fc.record({ kind: fc.constant('complete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('no_show' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('adjust' as const), delta: fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0) }),
);

const EVERY_PATH: Op[] = [
  { kind: 'book', late: true },
  { kind: 'book', late: true },
  { kind: 'cancel', pick: 0, waive: false },
  { kind: 'cancel', pick: 0, waive: true },
  { kind: 'book', late: false },
  { kind: 'cancel', pick: 0, waive: false },
  { kind: 'adjust', delta: 3 },
  { kind: 'book', late: false },
  { kind: 'book', late: true },
  { kind: 'book', late: false },
  { kind: 'complete', pick: 0 },
  { kind: 'no_show', pick: 0 },
  { kind: 'delete', pick: 0 },
  { kind: 'adjust', delta: -2 },
  { kind: 'book', late: true },
  { kind: 'book', late: true },
  { kind: 'adjust', delta: -1 },
];

let scene: Scene;
let serviceId: string;
const today = todayIn();
// A distinct 30-minute start for every booking of the whole test: days 1-6 ahead are inside the
// 7-day late window, days 10-29 outside it; 9:00-16:30 New York time, the provider's hours.
let lateSlot = 0;
let earlySlot = 0;
const slot = (n: number, firstDay: number) =>
  nyTime(
    addDays(today, firstDay + Math.floor(n / 16)),
    `${String(9 + Math.floor((n % 16) / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`,
  );

beforeAll(async () => {
  scene = await makeScene();
  serviceId = (await makeService(scene.practice, { provider_ids: [scene.provider.id], duration_minutes: 30 })).id;
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
});

const ledgerOf = async (planId: string) => {
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': planLedgerPk(scene.practice.medspaId, planId) },
      ConsistentRead: true,
    }),
  );
  // Oldest first: the key's order (`created_at#id`).
  return Items.map((item) => planLedgerCodec.fromItem(item)!);
};

const counters = (b: Balance) => [b.granted, b.reserved, b.used, b.expired, b.remaining];

/** The balance as stored, its sum rule and floor, the model's figures, and the ledger's replay. */
async function expectConsistent(planId: string, model: Balance) {
  const balance = (await findClientPlan(scene.practice.medspaId, planId))!.balances[0]!;
  const stored: Balance = { ...emptyBalance(serviceId), ...pick(balance) };
  expect(stored.granted).toBe(stored.reserved + stored.used + stored.remaining + stored.expired);
  expect(counters(stored).every((n) => n >= 0)).toBe(true);
  expect(stored).toEqual(model);
  let replayed: Balance = emptyBalance(serviceId);
  for (const entry of await ledgerOf(planId)) {
    const next = applyStep(replayed, balanceStep(entry.kind, entry.quantity));
    expect(next, `${entry.kind} ${entry.quantity} below zero`).not.toBeNull();
    replayed = next!;
    const { reserved, used, remaining } = replayed;
    expect(entry.balance_after, entry.kind).toEqual({ reserved, used, remaining });
  }
  expect(replayed).toEqual(stored);
}

const pick = (b: Balance) => ({
  granted: b.granted,
  reserved: b.reserved,
  used: b.used,
  expired: b.expired,
  remaining: b.remaining,
});

const stepModel = (model: Balance, kind: Parameters<typeof balanceStep>[0], quantity = 1) =>
  applyStep(model, balanceStep(kind, quantity));

async function run(granted: number, ops: Op[]) {
  const { medspaId } = scene.practice;
  const plan = await makePlan(scene.practice, {
    kind: 'package',
    benefits: [{ service_id: serviceId, quantity: granted }],
  });
  const planId = (await sellPlanTo(scene.practice, scene.client.id, { plan_id: plan.id })).id as string;
  let model: Balance = applyStep(emptyBalance(serviceId), balanceStep('grant', granted))!;
  const active: { id: string; late: boolean }[] = [];
  const now = () => new Date();
  const through = async (
    id: string,
    path: readonly ('confirmed' | 'checked_in' | 'in_progress' | 'completed' | 'no_show')[],
  ) => {
    for (const to of path) await changeStatus(medspaId, id, to, { now: now() });
  };
  for (const step of ops) {
    const target =
      step.kind !== 'book' && step.kind !== 'adjust' && active.length > 0
        ? active.splice(step.pick % active.length, 1)[0]!
        : null;
    switch (step.kind) {
      case 'book': {
        const scheduled_at = step.late ? slot(lateSlot++, 1) : slot(earlySlot++, 10);
        const next = stepModel(model, 'reserve');
        try {
          const booked = await createAppointment(
            medspaId,
            {
              client_id: scene.client.id,
              service_id: serviceId,
              provider_id: scene.provider.id,
              scheduled_at,
              source: 'manual',
              client_plan_id: planId,
            },
            now(),
          );
          expect(next, 'booked with nothing remaining').not.toBeNull();
          expect(booked).toMatchObject({ price_cents: 0, deposit_required_cents: 0 });
          active.push({ id: booked.id, late: step.late });
          model = next!;
        } catch (error) {
          if (!isAppError(error) || error.code !== 'ENTITLEMENT_EXHAUSTED') throw error;
          expect(next, 'refused with units remaining').toBeNull();
        }
        break;
      }
      case 'cancel':
        if (!target) break;
        await changeStatus(medspaId, target.id, 'cancelled', { now: now(), waiveFee: step.waive });
        model = stepModel(model, target.late && !step.waive ? 'use' : 'release')!;
        break;
      case 'complete':
        if (!target) break;
        await through(target.id, ['confirmed', 'checked_in', 'in_progress', 'completed']);
        model = stepModel(model, 'use')!;
        break;
      case 'no_show':
        if (!target) break;
        await through(target.id, ['confirmed', 'checked_in', 'no_show']);
        model = stepModel(model, 'use')!;
        break;
      case 'delete':
        if (!target) break;
        await deleteAppointment(medspaId, target.id, {});
        model = stepModel(model, 'release')!;
        break;
      case 'adjust': {
        const next = stepModel(model, 'adjust', step.delta);
        try {
          await adjustBalance(
            adminCaller(scene.practice),
            planId,
            { service_id: serviceId, delta: step.delta, reason: 'test' },
            now(),
          );
          expect(next, 'adjusted below zero').not.toBeNull();
          model = next!;
        } catch (error) {
          if (!isAppError(error) || error.code !== 'ENTITLEMENT_EXHAUSTED') throw error;
          expect(next, 'refused an adjustment that fits').toBeNull();
        }
        break;
      }
    }
  }
  await expectConsistent(planId, model);
}

describe('the plan ledger under any interleaving', () => {
  it('book, cancel (early, late, waived), complete, no-show, delete and adjust keep the balance exact and the ledger replayable', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(op, { minLength: 1, maxLength: 10 }), run),
      // Each run is a few dozen writes on DynamoDB Local: a handful of runs keeps the file at seconds.
      {
        numRuns: 8,
        endOnFailure: true,
        // Every path at least once, whatever the random runs draw: late cancel used and waived,
        // early cancel, completion, no-show, delete, adjustments both ways, a booking refused at 0.
        examples: [[2, EVERY_PATH]],
      },
    );
  });
});
