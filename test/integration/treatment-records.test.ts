import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../lib/auth/tokens';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb, tableName } from '../../lib/db/client';
import { lotExposureCodec, stockAdjustmentCodec } from '../../lib/db/codecs';
import { entityKey, lotExposuresPk, stockLedgerPk } from '../../lib/db/keys';
import { findLot } from '../../lib/db/lots';
import { findProduct } from '../../lib/db/products';
import { queryAll } from '../../lib/db/query';
import { AppError } from '../../lib/errors';
import * as appointmentRoutes from '../../lib/routes/appointments';
import * as treatmentRoutes from '../../lib/routes/treatment-records';
import { changeStatus } from '../../lib/use-cases/appointment-status';
import {
  amendTreatmentRecord,
  listTreatmentRecordVersions,
  readTreatmentRecord,
  recordTreatment,
  signTreatmentRecord,
} from '../../lib/use-cases/treatment-records';
import { call } from '../fixtures/api';
import { adminCaller, belowHttp } from '../fixtures/below-http';
import { makeLot, makeProduct } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';
import { addDays, todayIn } from '../fixtures/dates';
import { BOOKING_DAY, booked, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Treatment records v2 (API reference, clinical records): stock by lot in the record's own write,
 * by the difference on replace and amend; lot exposure items; sign and lock; versions. Set-up and
 * most calls below HTTP (each inside its route's function: the synthesized IAM role checks every
 * DynamoDB call); HTTP where roles, status codes and the document are the subject.
 */

let scene: Scene;
let dayOffset = 0;
beforeAll(async () => {
  scene = await makeScene();
});

const caller = (): Caller => adminCaller(scene.practice);

/** A checked-in appointment on its own day (one provider, so one day each keeps them apart). */
async function checkedIn(): Promise<any> {
  const appointment = await booked(scene, { scheduled_at: nyTime(addDays(BOOKING_DAY, dayOffset++), '10:00') });
  for (const status of ['confirmed', 'checked_in'] as const)
    await belowHttp(
      appointmentRoutes.updateAppointmentStatus,
      caller(),
      { params: { id: appointment.id }, body: { status } },
      ({ caller, params, body, now, writes }) => changeStatus(caller.medspaId, params.id, body.status, { now, writes }),
    );
  return appointment;
}

const put = (appointmentId: string, body: Record<string, unknown>, who: Caller = caller()) =>
  belowHttp(appointmentRoutes.recordTreatment, who, { params: { id: appointmentId }, body }, (r) =>
    recordTreatment(r.caller.medspaId, r.params.id, r.body, { now: r.now, by: r.caller.clientId, writes: r.writes }),
  );
const sign = (appointmentId: string, who: Caller = caller()) =>
  belowHttp(treatmentRoutes.signTreatmentRecord, who, { params: { id: appointmentId } }, (r) =>
    signTreatmentRecord(r.caller.medspaId, r.params.id, { now: r.now, by: r.caller.clientId, writes: r.writes }),
  );
const amend = (appointmentId: string, reason: string, record: Record<string, unknown>, who: Caller = caller()) =>
  belowHttp(
    treatmentRoutes.amendTreatmentRecord,
    who,
    { params: { id: appointmentId }, body: { reason, record } },
    (r) =>
      amendTreatmentRecord(r.caller.medspaId, r.params.id, r.body, {
        now: r.now,
        by: r.caller.clientId,
        writes: r.writes,
      }),
  );
const read = (appointmentId: string) =>
  belowHttp(treatmentRoutes.getTreatmentRecord, caller(), { params: { id: appointmentId } }, (r) =>
    readTreatmentRecord(r.caller.medspaId, r.params.id),
  );
/** Every revision (one page: an appointment's revisions are few), read inside the route's function (a list: belowHttp answers single resources). */
const versions = async (appointmentId: string) =>
  (
    await runAsFunction(treatmentRoutes.listTreatmentRecordVersions.operation, () =>
      listTreatmentRecordVersions(scene.practice.medspaId, appointmentId, { limit: 100 }),
    )
  ).data;

/** The error code a refused call threw (or 'ok'). */
const outcome = (work: Promise<unknown>) =>
  work.then(
    () => 'ok',
    (error) => {
      if (error instanceof AppError) return error.code;
      throw error;
    },
  );

const uses = (productId: string, lotId: string | undefined, quantity: number) => ({
  product_id: productId,
  ...(lotId ? { lot_id: lotId } : {}),
  quantity,
  injection_points: [{ site: 'glabella', units: 4 }],
});

/** A lot-tracked product with a lot of `units`. */
async function lotOf(units: number, overrides: Record<string, unknown> = {}) {
  const product = await makeProduct(scene.practice, { tracks_lots: true, low_stock_threshold: 0 });
  const lot = await makeLot(scene.practice, product.id, overrides, units);
  return { product, lot };
}

/** The product's and lot's stock, the treatment ledger entries and the lot's exposure items, read straight from the table. */
async function stateOf(productId: string, lotId: string | null) {
  const medspaId = scene.practice.medspaId;
  const [product, lot, ledger, exposures] = await Promise.all([
    findProduct(medspaId, productId),
    lotId ? findLot(medspaId, lotId) : null,
    queryAll(stockAdjustmentCodec, { partition: stockLedgerPk(medspaId, productId), consistent: true }),
    lotId ? queryAll(lotExposureCodec, { partition: lotExposuresPk(medspaId, lotId), consistent: true }) : [],
  ]);
  return {
    product: product!.quantity_on_hand,
    lot: lot?.quantity_on_hand ?? null,
    treatments: ledger
      .filter((entry) => entry.reason === 'treatment')
      .map((entry) => ({ delta: entry.delta, appointment_id: entry.appointment_id, lot_id: entry.lot_id }))
      .sort((a, b) => a.delta - b.delta),
    exposures: exposures.map((exposure) => ({
      appointment_id: exposure.appointment_id,
      quantity: exposure.quantity,
      client_id: exposure.client_id,
      provider_id: exposure.provider_id,
      treated_at: exposure.treated_at,
      product_id: exposure.product_id,
    })),
  };
}

const exposure = (appointment: any, productId: string, quantity: number) => ({
  appointment_id: appointment.id,
  quantity,
  client_id: appointment.client_id,
  provider_id: appointment.provider_id,
  treated_at: appointment.scheduled_at,
  product_id: productId,
});

describe('treatment records take stock in their own write', () => {
  it('10 records on 10 appointments race for the last 6 units of one lot: exactly 6 take one each, never below zero', async () => {
    const { product, lot } = await lotOf(6);
    const appointments = await Promise.all(Array.from({ length: 10 }, () => checkedIn()));
    const results = await Promise.all(
      appointments.map((a) => outcome(put(a.id, { summary: 'Botox', products_used: [uses(product.id, lot.id, 1)] }))),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(6);
    expect(results.filter((r) => r !== 'ok')).toEqual(Array(4).fill('INSUFFICIENT_STOCK'));
    const state = await stateOf(product.id, lot.id);
    expect(state.product).toBe(0);
    expect(state.lot).toBe(0);
    const winners = appointments.filter((_, index) => results[index] === 'ok');
    expect(state.treatments).toHaveLength(6);
    expect(new Set(state.treatments.map((entry) => entry.appointment_id))).toEqual(new Set(winners.map((a) => a.id)));
    expect(state.treatments.every((entry) => entry.delta === -1 && entry.lot_id === lot.id)).toBe(true);
    expect(state.exposures.sort((a, b) => a.appointment_id.localeCompare(b.appointment_id))).toEqual(
      winners.map((a) => exposure(a, product.id, 1)).sort((a, b) => a.appointment_id.localeCompare(b.appointment_id)),
    );
  });

  it('an expired or a recalled lot is refused with nothing changed (stock, record, exposures)', async () => {
    const appointment = await checkedIn();
    // Expired: its last day is before the appointment's practice-local date (which is weeks ahead).
    const expired = await lotOf(5, { expires_on: todayIn() });
    const recalled = await lotOf(5);
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(scene.practice.medspaId, 'LOT', recalled.lot.id),
        UpdateExpression: 'SET #s = :r',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':r': 'recalled' },
      }),
    );
    const free = await makeProduct(scene.practice, { quantity_on_hand: 10 });
    for (const [{ product, lot }, code] of [
      [expired, 'LOT_EXPIRED'],
      [recalled, 'LOT_RECALLED'],
    ] as const) {
      // With another product in the same record: it is not taken either.
      const body = { products_used: [uses(free.id, undefined, 2), uses(product.id, lot.id, 1)] };
      expect(await outcome(put(appointment.id, body))).toBe(code);
      expect(await stateOf(product.id, lot.id)).toMatchObject({ product: 5, lot: 5, treatments: [], exposures: [] });
    }
    expect((await stateOf(free.id, null)).product).toBe(10);
    expect(await outcome(read(appointment.id))).toBe('APPOINTMENT_NOT_FOUND');
    // A draft that exists stays as it was when its replace is refused.
    const draft = await put(appointment.id, { summary: 'first', products_used: [uses(free.id, undefined, 1)] });
    expect(await outcome(put(appointment.id, { products_used: [uses(recalled.product.id, recalled.lot.id, 1)] }))).toBe(
      'LOT_RECALLED',
    );
    expect(await read(appointment.id)).toEqual(draft);
    expect((await stateOf(free.id, null)).product).toBe(9);
  });

  it('a lot-tracked product without lot_id is a 400, an unknown product a 404, and a lot of another product a 404', async () => {
    const appointment = await checkedIn();
    const { product, lot } = await lotOf(3);
    const other = await lotOf(3);
    await expect(put(appointment.id, { products_used: [uses(product.id, undefined, 1)] })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'products_used.0.lot_id', message: 'is required: this product tracks lots' }],
    });
    expect(await outcome(put(appointment.id, { products_used: [uses(other.product.id, lot.id, 1)] }))).toBe(
      'LOT_NOT_FOUND',
    );
    expect(
      await outcome(
        put(appointment.id, { products_used: [uses('00000000-0000-4000-8000-000000000000', undefined, 1)] }),
      ),
    ).toBe('PRODUCT_NOT_FOUND');
    expect(await stateOf(product.id, lot.id)).toMatchObject({ product: 3, lot: 3, treatments: [] });
  });

  it('replace and amend move stock by the difference, and the exposure items follow the current record', async () => {
    const appointment = await checkedIn();
    const { product, lot: lotA } = await lotOf(10);
    const lotB = await makeLot(scene.practice, product.id, {}, 10);
    const first = await put(appointment.id, { products_used: [uses(product.id, lotA.id, 3)] });
    expect(first).toMatchObject({
      status: 'draft',
      version: 1,
      revision: null,
      products_used: [
        { name: product.name, product_id: product.id, lot_id: lotA.id, lot_number: lotA.lot_number, quantity: 3 },
      ],
    });
    // Replace: 5 from A (2 more), then 2 from B and none from A (A gets its 5 back).
    await put(appointment.id, { products_used: [uses(product.id, lotA.id, 5)] });
    let a = await stateOf(product.id, lotA.id);
    expect(a).toMatchObject({ product: 15, lot: 5, exposures: [exposure(appointment, product.id, 5)] });
    expect(a.treatments).toEqual([
      { delta: -3, appointment_id: appointment.id, lot_id: lotA.id },
      { delta: -2, appointment_id: appointment.id, lot_id: lotA.id },
    ]);
    await put(appointment.id, { products_used: [uses(product.id, lotB.id, 2)] });
    a = await stateOf(product.id, lotA.id);
    let b = await stateOf(product.id, lotB.id);
    expect(a).toMatchObject({ product: 18, lot: 10, exposures: [] });
    expect(b).toMatchObject({ lot: 8, exposures: [exposure(appointment, product.id, 2)] });
    expect(a.treatments.find((entry) => entry.delta > 0)).toEqual({
      delta: 5,
      appointment_id: appointment.id,
      lot_id: lotA.id,
    });
    // The same amounts again move nothing (no ledger entry).
    await put(appointment.id, { summary: 'same stock', products_used: [uses(product.id, lotB.id, 2)] });
    expect((await stateOf(product.id, lotB.id)).treatments).toHaveLength(4);

    const signed = await sign(appointment.id);
    // Amend: 1 from B and 4 from A.
    const amended = await amend(appointment.id, 'lot corrected', {
      products_used: [uses(product.id, lotB.id, 1), uses(product.id, lotA.id, 4)],
    });
    expect(amended).toMatchObject({
      revision: 2,
      status: 'signed',
      amendment_reason: 'lot corrected',
      version: signed.version + 1,
    });
    a = await stateOf(product.id, lotA.id);
    b = await stateOf(product.id, lotB.id);
    expect([a.product, a.lot, b.lot]).toEqual([15, 6, 9]);
    expect(a.exposures).toEqual([exposure(appointment, product.id, 4)]);
    expect(b.exposures).toEqual([exposure(appointment, product.id, 1)]);
    // Every movement the record caused is a treatment entry of this appointment; they sum to what it takes now.
    const sum = a.treatments.reduce((total, entry) => total + entry.delta, 0);
    expect(sum).toBe(-5);
    expect(a.treatments.every((entry) => entry.appointment_id === appointment.id)).toBe(true);
  });
});

describe('amendments and the rest of stock', () => {
  it('an amendment that takes the product to its threshold crosses to low stock once; one that drops a lot deletes its exposure', async () => {
    const appointment = await checkedIn();
    const product = await makeProduct(scene.practice, { tracks_lots: true, low_stock_threshold: 1 });
    const lotA = await makeLot(scene.practice, product.id, {}, 2);
    const lotB = await makeLot(scene.practice, product.id, {}, 2);
    await put(appointment.id, { products_used: [uses(product.id, lotA.id, 1)] });
    await sign(appointment.id);
    await amend(appointment.id, 'two more from B', {
      products_used: [uses(product.id, lotB.id, 2), uses(product.id, lotA.id, 1)],
    });
    const ledger = await queryAll(stockAdjustmentCodec, {
      partition: stockLedgerPk(scene.practice.medspaId, product.id),
      consistent: true,
    });
    expect(ledger.filter((entry) => entry.low_stock_crossed).map((entry) => entry.quantity_after)).toEqual([1]);
    await amend(appointment.id, 'none from A after all', { products_used: [uses(product.id, lotB.id, 2)] });
    const a = await stateOf(product.id, lotA.id);
    const b = await stateOf(product.id, lotB.id);
    expect([a.product, a.lot, b.lot]).toEqual([2, 2, 0]);
    expect(a.exposures).toEqual([]);
    expect(b.exposures).toEqual([exposure(appointment, product.id, 2)]);
    expect((await versions(appointment.id)).map((v: any) => v.revision)).toEqual([1, 2, 3]);
  });
});

describe('sign and lock, amendments, versions', () => {
  it('signs a draft as revision 1, refuses PUT on it (RECORD_LOCKED), amends as revision n+1 and lists the revisions oldest first', async () => {
    const appointment = await checkedIn();
    await put(appointment.id, { summary: 'draft 1' });
    await put(appointment.id, { summary: 'draft 2' });
    const signed = await sign(appointment.id);
    expect(signed).toMatchObject({
      summary: 'draft 2',
      status: 'signed',
      revision: 1,
      version: 3,
      signed_by: scene.practice.clientId,
      signed_at: expect.any(String),
      amendment_reason: null,
    });
    expect(await outcome(put(appointment.id, { summary: 'rewrite' }))).toBe('RECORD_LOCKED');
    // The lock is judged before the body's products.
    const unknown = uses('00000000-0000-4000-8000-000000000000', undefined, 1);
    expect(await outcome(put(appointment.id, { products_used: [unknown] }))).toBe('RECORD_LOCKED');
    expect(await outcome(sign(appointment.id))).toBe('RECORD_LOCKED');
    const amended = await amend(appointment.id, 'typo', { summary: 'amended' });
    expect(amended).toMatchObject({ summary: 'amended', revision: 2, version: 4, amendment_reason: 'typo' });
    expect(await read(appointment.id)).toEqual(amended);
    expect(await versions(appointment.id)).toEqual([signed, amended]);
  });

  it('an amendment needs a signed record; a record needs a checked-in, in-progress or completed appointment', async () => {
    const appointment = await checkedIn();
    expect(await outcome(amend(appointment.id, 'x', { summary: 'y' }))).toBe('APPOINTMENT_NOT_FOUND');
    expect(await outcome(sign(appointment.id))).toBe('APPOINTMENT_NOT_FOUND');
    await put(appointment.id, { summary: 'draft' });
    expect(await outcome(amend(appointment.id, 'x', { summary: 'y' }))).toBe('CONFLICT');
    expect(await versions(appointment.id)).toEqual([]);
    const scheduled = await booked(scene, { scheduled_at: nyTime(addDays(BOOKING_DAY, dayOffset++), '10:00') });
    expect(await outcome(put(scheduled.id, { summary: 'x' }))).toBe('INVALID_STATUS_TRANSITION');
  });

  it('a sign racing PUTs: each PUT lands before the sign or is refused RECORD_LOCKED; the signed revision is the record, stock exact', async () => {
    const appointment = await checkedIn();
    const { product, lot } = await lotOf(20);
    await put(appointment.id, { products_used: [uses(product.id, lot.id, 1)] });
    const results = await Promise.all([
      outcome(sign(appointment.id)),
      ...[2, 3, 4, 5].map((n) => outcome(put(appointment.id, { products_used: [uses(product.id, lot.id, n)] }))),
    ]);
    expect(['ok', 'VERSION_CONFLICT']).toContain(results[0]);
    expect(results.slice(1).every((r) => r === 'ok' || r === 'RECORD_LOCKED')).toBe(true);
    const current = await read(appointment.id);
    const took = current.products_used[0].quantity;
    const state = await stateOf(product.id, lot.id);
    expect([state.product, state.lot]).toEqual([20 - took, 20 - took]);
    expect(state.exposures).toEqual([exposure(appointment, product.id, took)]);
    if (results[0] === 'ok') expect(await versions(appointment.id)).toEqual([current]);
    else expect(current.status).toBe('draft');
  });

  it('amendments at once: one revision per version, the losers VERSION_CONFLICT, stock and exposures exact', async () => {
    const appointment = await checkedIn();
    const { product, lot } = await lotOf(30);
    await put(appointment.id, { products_used: [uses(product.id, lot.id, 1)] });
    await sign(appointment.id);
    const results = await Promise.all(
      [2, 3, 4, 5, 6].map((n) =>
        outcome(amend(appointment.id, `to ${n}`, { products_used: [uses(product.id, lot.id, n)] })),
      ),
    );
    expect(results.every((r) => r === 'ok' || r === 'VERSION_CONFLICT')).toBe(true);
    const wins = results.filter((r) => r === 'ok').length;
    expect(wins).toBeGreaterThanOrEqual(1);
    const listed = await versions(appointment.id);
    expect(listed.map((v: any) => v.revision)).toEqual(Array.from({ length: wins + 1 }, (_, i) => i + 1));
    const current = await read(appointment.id);
    expect(listed.at(-1)).toEqual(current);
    const took = current.products_used[0].quantity;
    const state = await stateOf(product.id, lot.id);
    expect([state.product, state.lot]).toEqual([30 - took, 30 - took]);
    expect(state.treatments.reduce((total, entry) => total + entry.delta, 0)).toBe(-took);
    expect(state.exposures).toEqual([exposure(appointment, product.id, took)]);
  });

  it('DynamoDB calls: a PUT taking stock is 1 Query + 1 BatchGetItem + 1 TransactWriteItems; a sign 1 Query + 1 TransactWriteItems', async () => {
    const appointment = await checkedIn();
    const { product, lot } = await lotOf(5);
    const body = { products_used: [uses(product.id, lot.id, 1)] };
    const written = await counted(() => put(appointment.id, body));
    expect(written.calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const signing = await counted(() => sign(appointment.id));
    expect(signing.calls).toEqual({ QueryCommand: 1, TransactWriteItemsCommand: 1 });
  });
});

describe('over HTTP: roles, status codes, the published sites', () => {
  it('provider writes, signs and amends; front_desk cannot sign or amend (403); GET answers the record with its ETag', async () => {
    const appointment = await checkedIn();
    const base = `/v1/appointments/${appointment.id}/treatment-record`;
    const [provider, frontDesk] = await Promise.all([
      scene.practice.tokenForRole('provider'),
      scene.practice.tokenForRole('front_desk'),
    ]);
    expect((await call('GET', base, { token: provider })).body.error.code).toBe('APPOINTMENT_NOT_FOUND');
    const bad = await call('PUT', base, {
      token: provider,
      body: { products_used: [{ name: 'Botox', injection_points: [{ site: 'elbow', units: 2 }] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('products_used.0.injection_points.0.site');
    expect((await call('PUT', base, { token: provider, body: { summary: 'ok' } })).status).toBe(200);
    expect((await call('POST', `${base}/sign`, { token: frontDesk })).status).toBe(403);
    const signed = await call('POST', `${base}/sign`, { token: provider });
    expect(signed.status).toBe(200);
    expect(signed.body.data).toMatchObject({ status: 'signed', revision: 1 });
    const locked = await call('PUT', base, { token: provider, body: { summary: 'no' } });
    expect([locked.status, locked.body.error.code]).toEqual([409, 'RECORD_LOCKED']);
    const body = { reason: 'addendum', record: { summary: 'ok, with addendum' } };
    expect((await call('POST', `${base}/amendments`, { token: frontDesk, body })).status).toBe(403);
    const stale = await call('POST', `${base}/amendments`, { token: provider, body, headers: { 'if-match': '"1"' } });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'VERSION_CONFLICT']);
    const amended = await call('POST', `${base}/amendments`, { token: provider, body });
    expect(amended.status).toBe(201);
    const current = await call('GET', base, { token: provider });
    expect(current.headers.etag).toBe(`"${amended.body.data.version}"`);
    const listed = await call('GET', `${base}/versions`, { token: provider });
    expect(listed.body.data.map((v: any) => [v.revision, v.summary])).toEqual([
      [1, 'ok'],
      [2, 'ok, with addendum'],
    ]);
    expect(listed.body.pagination).toEqual({ total: 2, next_cursor: null });
    const first = await call('GET', `${base}/versions?limit=1`, { token: provider });
    expect(first.body.data.map((v: any) => v.revision)).toEqual([1]);
    const next = await call('GET', `${base}/versions?limit=1&cursor=${first.body.pagination.next_cursor}`, {
      token: provider,
    });
    expect([next.body.data.map((v: any) => v.revision), next.body.pagination.next_cursor]).toEqual([[2], null]);
  });

  it('the OpenAPI document publishes the injection sites and the new operations', async () => {
    const document = (await call('GET', '/v1/openapi.json')).body;
    expect(document.components.schemas.InjectionSite.enum).toEqual(expect.arrayContaining(['glabella', 'lips_upper']));
    for (const path of ['/sign', '/amendments', '/versions'])
      expect(document.paths[`/v1/appointments/{id}/treatment-record${path}`]).toBeDefined();
    expect(document.webhooks['treatment_record.signed']).toBeDefined();
  });
});
