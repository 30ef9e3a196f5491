import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { appointmentKey, practiceKey } from '../../lib/db/keys';
import type { CancellationPolicy } from '../../lib/domain/deposits';
import { getPractice } from '../../lib/db/practices';
import { bookOnline, cancelOnlineBooking } from '../../lib/use-cases/public-booking';
import { publicServices } from '../../lib/use-cases/public-catalog';
import { changePractice } from '../../lib/use-cases/practice';
import { call, type TestPractice } from '../fixtures/api';
import { makeService } from '../fixtures/builders';
import { getAppointment } from '../../lib/db/appointments';
import { addDays, NY, todayIn } from '../fixtures/dates';
import { makeOnlineScene, onlineBooking, outcome } from '../fixtures/online-booking';
import { book, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

// Deposits, the cancellation policy and its fees (API reference, section 11), through the API.
// Appointments start two days from now, so a 7-day late window makes any cancel late and a 60-minute one never.

const LATE: CancellationPolicy = {
  late_cancel_minutes: 10_080,
  late_cancel_fee: { type: 'percent', value: 50 },
  no_show_fee: { type: 'fixed', value: 10_000 },
};
const EARLY_ONLY: CancellationPolicy = { ...LATE, late_cancel_minutes: 60 };
const SOON = addDays(todayIn(NY), 2);
let hour = 9;
const nextStart = () => nyTime(SOON, `${String((hour++ % 8) + 9).padStart(2, '0')}:00`);

const ok = (response: { status: number; body: any }, status = 200) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body.data;
};
const setPolicy = (practice: TestPractice, policy: CancellationPolicy | null) =>
  changePractice(practice.medspaId, { cancellation_policy: policy }, { now: new Date() });

/** A scene whose practice has `policy` and whose service (price 25000) asks `deposit`. */
async function sceneWith(policy: CancellationPolicy | null, deposit?: { type: string; value: number }) {
  const scene = await makeScene();
  await setPolicy(scene.practice, policy);
  const service = deposit
    ? await makeService(scene.practice, {
        provider_ids: [scene.provider.id],
        duration_minutes: 60,
        price_cents: 25_000,
        deposit,
      })
    : scene.service;
  return { ...scene, service };
}
const booking = async (scene: Scene, overrides: Record<string, unknown> = {}) =>
  ok(await book(scene, { service_id: scene.service.id, scheduled_at: nextStart(), ...overrides }), 201);
const pay = (scene: Scene, body: Record<string, unknown>, token = scene.practice.adminToken) =>
  call('POST', '/v1/payments', { token, body: { client_id: scene.client.id, method: 'card', ...body } });
const cancel = (scene: Scene, id: string, body: Record<string, unknown> = {}, token = scene.practice.adminToken) =>
  call('POST', `/v1/appointments/${id}/cancel`, { token, body });
const waive = (scene: Scene, id: string, token = scene.practice.adminToken, kind = 'late_cancel') =>
  call('POST', `/v1/appointments/${id}/fees/${kind}/waive`, { token, body: { reason: 'Goodwill' } });
const read = async (scene: Scene, id: string) =>
  ok(await call('GET', `/v1/appointments/${id}`, { token: scene.practice.adminToken }));

describe('snapshots at booking', () => {
  it('the policy and the deposit are copied at booking: later changes move nothing booked; null clears the policy', async () => {
    const scene = await sceneWith(LATE, { type: 'percent', value: 12.5 });
    const patched = ok(
      await call('PATCH', '/v1/practice', {
        token: scene.practice.adminToken,
        body: { cancellation_policy: LATE, online_booking: { deposit_note: 'Deposits hold your time.' } },
      }),
    );
    expect(patched).toMatchObject({
      cancellation_policy: LATE,
      online_booking: { deposit_note: 'Deposits hold your time.' },
    });
    const first = await booking(scene);
    expect(first).toMatchObject({
      deposit_required_cents: 3125,
      deposit_paid_cents: 0,
      cancellation_policy: LATE,
      fees: [],
    });

    ok(await call('PATCH', '/v1/practice', { token: scene.practice.adminToken, body: { cancellation_policy: null } }));
    ok(
      await call('PATCH', `/v1/services/${scene.service.id}`, {
        token: scene.practice.adminToken,
        body: { deposit: { type: 'fixed', value: 100 } },
      }),
    );
    expect(await read(scene, first.id)).toMatchObject({ deposit_required_cents: 3125, cancellation_policy: LATE });
    const second = await booking(scene);
    expect(second).toMatchObject({ deposit_required_cents: 100, cancellation_policy: null });
    expect((await getPractice(scene.practice.medspaId))!.cancellation_policy).toBeNull();
  });

  it('a bad policy or deposit is 400 at its field', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const bad = await call('PATCH', '/v1/practice', {
      token,
      body: { cancellation_policy: { ...LATE, late_cancel_minutes: 10_081 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('cancellation_policy.late_cancel_minutes');
    const percent = await call('PATCH', `/v1/services/${scene.service.id}`, {
      token,
      body: { deposit: { type: 'percent', value: 100.5 } },
    });
    expect(percent.status).toBe(400);
    expect(percent.body.error.details[0].path).toBe('deposit.value');
  });

  it('appointments and services stored before deposits read as none (codecs decode with defaults)', async () => {
    const scene = await makeScene();
    const appointment = await booking(scene);
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: appointmentKey(scene.practice.medspaId, appointment.id),
        UpdateExpression: 'REMOVE deposit_required_cents, deposit_paid_cents, cancellation_policy, fees',
      }),
    );
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: practiceKey(scene.practice.medspaId),
        UpdateExpression: 'REMOVE cancellation_policy',
      }),
    );
    expect(await read(scene, appointment.id)).toMatchObject({
      deposit_required_cents: 0,
      deposit_paid_cents: 0,
      cancellation_policy: null,
      fees: [],
    });
    // A deposit on such an appointment starts from 0; a cancel without a policy assesses nothing.
    ok(await pay(scene, { appointment_id: appointment.id, amount_cents: 700, kind: 'deposit' }), 201);
    expect(ok(await cancel(scene, appointment.id))).toMatchObject({ deposit_paid_cents: 700, fees: [] });
  });
});

describe('deposits and fees', () => {
  it('deposits add up exactly under concurrency; a late cancel applies them first', async () => {
    const scene = await sceneWith(LATE, { type: 'fixed', value: 5000 });
    const appointment = await booking(scene);
    const paid = await Promise.all(
      [1000, 1000, 1000, 1000, 1000].map((amount) =>
        pay(scene, { appointment_id: appointment.id, amount_cents: amount, kind: 'deposit', reference: 'pi_123' }),
      ),
    );
    for (const response of paid) expect(ok(response, 201)).toMatchObject({ kind: 'deposit', reference: 'pi_123' });
    expect((await read(scene, appointment.id)).deposit_paid_cents).toBe(5000);

    const cancelled = ok(await cancel(scene, appointment.id, { reason: 'Changed plans' }));
    expect(cancelled.fees).toEqual([
      {
        kind: 'late_cancel',
        amount_cents: 12_500,
        deposit_applied_cents: 5000,
        due_cents: 7500,
        status: 'due',
        assessed_at: cancelled.updated_at,
        waived_at: null,
        waive_reason: null,
      },
    ]);
    expect(await read(scene, appointment.id)).toMatchObject({ fees: cancelled.fees, version: cancelled.version });
  });

  it('a cancel outside the late window assesses nothing; without a deposit or appointment a deposit or fee payment is 400', async () => {
    const scene = await sceneWith(EARLY_ONLY);
    const appointment = await booking(scene);
    expect(ok(await cancel(scene, appointment.id)).fees).toEqual([]);
    for (const kind of ['deposit', 'fee']) {
      const refused = await pay(scene, { amount_cents: 100, kind });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].path).toBe('appointment_id');
    }
  });

  it("a client's deletion cancels its appointments without fees, even inside the late window", async () => {
    const scene = await sceneWith(LATE);
    const appointment = await booking(scene);
    ok(await call('DELETE', `/v1/clients/${scene.client.id}`, { token: scene.practice.adminToken }));
    expect(await read(scene, appointment.id)).toMatchObject({ status: 'cancelled', fees: [] });
  });

  it('a no-show with a deposit above the fee is paid at once', async () => {
    const scene = await sceneWith(LATE);
    const appointment = await booking(scene);
    ok(await pay(scene, { appointment_id: appointment.id, amount_cents: 15_000, kind: 'deposit' }), 201);
    for (const status of ['confirmed', 'checked_in'])
      ok(
        await call('PATCH', `/v1/appointments/${appointment.id}/status`, {
          token: scene.practice.adminToken,
          body: { status },
        }),
      );
    const noShow = ok(
      await call('POST', `/v1/appointments/${appointment.id}/no-show`, { token: scene.practice.adminToken }),
    );
    expect(noShow.fees).toMatchObject([
      { kind: 'no_show', amount_cents: 10_000, deposit_applied_cents: 10_000, due_cents: 0, status: 'paid' },
    ]);
  });

  it('fee payments: part payments reach paid; above what is due or with nothing due is 400 at amount_cents', async () => {
    const scene = await sceneWith(LATE);
    const appointment = await booking(scene);
    ok(await cancel(scene, appointment.id));
    const fee = (body: Record<string, unknown>) => pay(scene, { appointment_id: appointment.id, kind: 'fee', ...body });

    const over = await fee({ amount_cents: 12_501 });
    expect(over.status).toBe(400);
    expect(over.body.error.details).toEqual([{ path: 'amount_cents', message: 'above the fee due (12500)' }]);
    ok(await fee({ amount_cents: 2500 }), 201);
    expect((await read(scene, appointment.id)).fees[0]).toMatchObject({ due_cents: 10_000, status: 'due' });
    ok(await fee({ amount_cents: 10_000 }), 201);
    expect((await read(scene, appointment.id)).fees[0]).toMatchObject({ due_cents: 0, status: 'paid' });
    const nothing = await fee({ amount_cents: 1 });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.details[0]).toMatchObject({ path: 'amount_cents' });
    // Paid fees are not waived.
    expect((await waive(scene, appointment.id)).body.error.code).toBe('INVALID_STATUS_TRANSITION');
  });

  it('8 parallel fee payments of the full due: exactly one is recorded', async () => {
    const scene = await sceneWith(LATE);
    const appointment = await booking(scene);
    ok(await cancel(scene, appointment.id));
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        pay(scene, { appointment_id: appointment.id, amount_cents: 12_500, kind: 'fee' }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    expect((await read(scene, appointment.id)).fees[0]).toMatchObject({ due_cents: 0, status: 'paid' });
    const payments = ok(
      await call('GET', `/v1/payments?client_id=${scene.client.id}`, { token: scene.practice.adminToken }),
    );
    expect(payments.filter((p: { kind: string }) => p.kind === 'fee')).toHaveLength(1);
  });

  it('a fee payment and a waiver at once: exactly one takes effect, the other is refused with its code', async () => {
    const scene = await sceneWith(LATE);
    const appointments = [await booking(scene), await booking(scene), await booking(scene)];
    for (const appointment of appointments) ok(await cancel(scene, appointment.id));
    const manager = await scene.practice.tokenForRole('manager');
    for (const appointment of appointments) {
      const [payment, waiver] = await Promise.all([
        pay(scene, { appointment_id: appointment.id, amount_cents: 12_500, kind: 'fee' }),
        waive(scene, appointment.id, manager),
      ]);
      const fee = (await read(scene, appointment.id)).fees[0];
      if (payment.status === 201) {
        expect(waiver.body.error.code).toBe('INVALID_STATUS_TRANSITION');
        expect(fee).toMatchObject({ status: 'paid', due_cents: 0 });
      } else {
        expect(payment.status).toBe(400);
        expect(payment.body.error.details[0].path).toBe('amount_cents');
        expect(waiver.status, JSON.stringify(waiver.body)).toBe(200);
        expect(fee).toMatchObject({ status: 'waived', due_cents: 0, waive_reason: 'Goodwill' });
      }
    }
  });

  it('waivers: admin and manager only (front_desk 403), including a cancel with waive_fee', async () => {
    const scene = await sceneWith(LATE);
    const [a, b, c] = [await booking(scene), await booking(scene), await booking(scene)];
    const frontDesk = await scene.practice.tokenForRole('front_desk');
    ok(await cancel(scene, a.id));
    expect((await waive(scene, a.id, frontDesk)).status).toBe(403);
    const waived = ok(await waive(scene, a.id, await scene.practice.tokenForRole('manager')));
    expect(waived.fees[0]).toMatchObject({ status: 'waived', due_cents: 0, waive_reason: 'Goodwill' });
    expect((await waive(scene, a.id, scene.practice.adminToken, 'no_show')).status).toBe(409);

    expect((await cancel(scene, b.id, { waive_fee: true, reason: 'Snow' }, frontDesk)).status).toBe(403);
    expect((await read(scene, b.id)).status).toBe('scheduled');
    const cancelled = ok(await cancel(scene, b.id, { waive_fee: true, reason: 'Snow' }));
    expect(cancelled.fees).toMatchObject([
      {
        kind: 'late_cancel',
        amount_cents: 12_500,
        deposit_applied_cents: 0,
        due_cents: 0,
        status: 'waived',
        waive_reason: 'Snow',
      },
    ]);
    // The front desk still cancels (and the fee is assessed) without waive_fee.
    expect(ok(await cancel(scene, c.id, {}, frontDesk)).fees[0]).toMatchObject({ status: 'due', due_cents: 12_500 });
  });
});

describe('a hold confirmed with its deposit', () => {
  it('a confirm below the quoted deposit is 422 DEPOSIT_REQUIRED (the hold stays active); with it, the payment and the spend commit with the appointment', async () => {
    const scene = await sceneWith(LATE, { type: 'fixed', value: 5000 });
    const token = scene.practice.adminToken;
    const held = ok(
      await call('POST', '/v1/holds', {
        token,
        body: { service_id: scene.service.id, provider_id: scene.provider.id, scheduled_at: nextStart() },
      }),
      201,
    );
    expect(held.deposit_required_cents).toBe(5000);
    const confirm = (deposit?: Record<string, unknown>) =>
      call('POST', `/v1/holds/${held.id}/confirm`, {
        token,
        body: { client_id: scene.client.id, ...(deposit ? { deposit } : {}) },
      });
    for (const refused of [await confirm(), await confirm({ amount_cents: 4999, method: 'card' })]) {
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('DEPOSIT_REQUIRED');
    }
    expect(ok(await call('GET', `/v1/holds/${held.id}`, { token })).status).toBe('active');

    const appointment = ok(await confirm({ amount_cents: 5000, method: 'card', reference: 'pi_confirm' }), 201);
    expect(appointment).toMatchObject({
      hold_id: held.id,
      deposit_required_cents: 5000,
      deposit_paid_cents: 5000,
      cancellation_policy: LATE,
    });
    const payments = ok(await call('GET', `/v1/payments?client_id=${scene.client.id}`, { token }));
    expect(payments).toEqual([
      expect.objectContaining({
        kind: 'deposit',
        appointment_id: appointment.id,
        reference: 'pi_confirm',
        amount_cents: 5000,
      }),
    ]);
    expect(ok(await call('GET', `/v1/clients/${scene.client.id}`, { token })).total_spent_cents).toBe(5000);
    // The deposit paid is applied to a late cancel's fee (50% of 25,000 = 12,500).
    const cancelled = ok(await cancel(scene, appointment.id));
    expect(cancelled.fees).toEqual([
      expect.objectContaining({
        kind: 'late_cancel',
        amount_cents: 12_500,
        deposit_applied_cents: 5000,
        due_cents: 7500,
      }),
    ]);
  });
});

describe('online booking and deposits', () => {
  it('a plain public booking of a service that asks a deposit is 422 DEPOSIT_REQUIRED; the catalog shows the deposit', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const deposit = await makeService(scene.practice, {
      name: 'Filler',
      provider_ids: [scene.provider.id],
      duration_minutes: 60,
      price_cents: 80_000,
      deposit: { type: 'percent', value: 25 },
    });
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene, { service_id: deposit.id }), new Date()))).toBe(
      'DEPOSIT_REQUIRED',
    );
    expect(await outcome(bookOnline(medspaId, onlineBooking(scene), new Date()))).toBe('ok');
    const listed = await publicServices((await getPractice(medspaId))!);
    expect(listed.find((s) => s.id === deposit.id)).toMatchObject({ deposit_required_cents: 20_000 });
    expect(listed.find((s) => s.id === scene.service.id)).toMatchObject({ deposit_required_cents: 0 });
  });

  it("the manage link's cancel inside the late window assesses the fee snapshotted on the online booking", async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    await setPolicy(scene.practice, LATE);
    const booked = await bookOnline(
      medspaId,
      onlineBooking(scene, { scheduled_at: nyTime(SOON, '10:00') }),
      new Date(),
    );
    await setPolicy(scene.practice, null);
    await cancelOnlineBooking(medspaId, booked.appointment_id, booked.manage_token, { now: new Date() });
    const appointment = (await getAppointment(medspaId, booked.appointment_id))!;
    expect(appointment).toMatchObject({ status: 'cancelled', cancellation_policy: LATE, deposit_required_cents: 0 });
    expect(appointment.fees).toMatchObject([
      { kind: 'late_cancel', amount_cents: 12_500, due_cents: 12_500, status: 'due' },
    ]);
  });
});
