import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { entityKey } from '../../lib/db/keys';
import { stockMoveActions, stockMoveFailure } from '../../lib/db/stock-moves';
import { transact } from '../../lib/db/transact';
import { productCodec } from '../../lib/db/codecs';
import { recallLot } from '../../lib/use-cases/lot-recall';
import { createLot } from '../../lib/use-cases/lots';
import { createStockAdjustment } from '../../lib/use-cases/products';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeLot, makeProduct } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

const get = async (practice: TestPractice, url: string) => {
  const response = await call('GET', url, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const adjust = (practice: TestPractice, productId: string, body: Record<string, unknown>) =>
  call('POST', `/v1/products/${productId}/stock-adjustments`, { token: practice.adminToken, body });

const postLot = (
  practice: TestPractice,
  productId: string,
  body: Record<string, unknown>,
  token = practice.adminToken,
) => call('POST', `/v1/products/${productId}/lots`, { token, body });

/** The product's quantity, each of its lots' and the ledger, read back over HTTP. */
async function stockOf(practice: TestPractice, productId: string) {
  const product = (await get(practice, `/v1/products/${productId}`)).data;
  const lots = (await get(practice, `/v1/products/${productId}/lots?limit=100`)).data;
  const ledger = (await get(practice, `/v1/products/${productId}/stock-adjustments?limit=100`)).data;
  return { product, lots, ledger, lotSum: lots.reduce((sum: number, lot: any) => sum + lot.quantity_on_hand, 0) };
}

/** A recall by its use case (POST /v1/lots/{id}/recall), below HTTP: the lot's uses are refused by the stock moves' own conditions. */
const recallBelowHttp = (medspaId: string, lotId: string) =>
  recallLot(medspaId, lotId, { reason: 'manufacturer notice' }, new Date());

let practice: TestPractice;
let tracked: any;
beforeAll(async () => {
  practice = await makePractice();
  tracked = await makeProduct(practice, { tracks_lots: true, low_stock_threshold: 2 });
});

describe('lots: create, read, list', () => {
  it("creates an empty active lot (201), reads it by id, lists a product's lots first to expire first", async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    expect(product).toMatchObject({ tracks_lots: true, quantity_on_hand: 0 });
    const created = await postLot(practice, product.id, { lot_number: 'C1234A5', expires_on: '2027-06-30' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const lot = created.body.data;
    expect(lot).toEqual({
      id: expect.any(String),
      product_id: product.id,
      lot_number: 'C1234A5',
      expires_on: '2027-06-30',
      quantity_on_hand: 0,
      status: 'active',
      recalled_at: null,
      recall_reason: null,
      recall_reference: null,
      version: 1,
      created_at: expect.any(String),
      updated_at: lot.created_at,
    });
    const got = await call('GET', `/v1/lots/${lot.id}`, { token: practice.adminToken });
    expect(got.body.data).toEqual(lot);
    expect(got.headers.etag).toBe('"1"');
    // A lot already past its date may be recorded.
    const old = (await postLot(practice, product.id, { lot_number: 'OLD-1', expires_on: '2020-01-31' })).body.data;
    const list = await get(practice, `/v1/products/${product.id}/lots`);
    expect(list.data.map((l: any) => l.id)).toEqual([old.id, lot.id]);
    expect(list.pagination).toEqual({ total: 2, next_cursor: null });
  });

  it("404 LOT_NOT_FOUND for unknown, malformed and other practices' lots; PRODUCT_NOT_FOUND for their products", async () => {
    const lot = await makeLot(practice, tracked.id);
    expectError(await call('GET', `/v1/lots/${randomUUID()}`, { token: practice.adminToken }), 404, 'LOT_NOT_FOUND');
    expectError(await call('GET', '/v1/lots/not-a-uuid', { token: practice.adminToken }), 404, 'LOT_NOT_FOUND');
    const other = await makePractice();
    expectError(await call('GET', `/v1/lots/${lot.id}`, { token: other.adminToken }), 404, 'LOT_NOT_FOUND');
    expectError(
      await call('GET', `/v1/products/${tracked.id}/lots`, { token: other.adminToken }),
      404,
      'PRODUCT_NOT_FOUND',
    );
    expectError(
      await postLot(other, tracked.id, { lot_number: 'X1', expires_on: '2030-01-01' }),
      404,
      'PRODUCT_NOT_FOUND',
    );
  });

  it('a lot-tracked product starts at 0 (400 otherwise) and keeps tracks_lots; lots of an untracked product are 409', async () => {
    const refused = await call('POST', '/v1/products', {
      token: practice.adminToken,
      body: { name: 'Toxin', sku: `TX-${randomUUID()}`, price_cents: 1000, tracks_lots: true, quantity_on_hand: 5 },
    });
    expectError(refused, 400, 'VALIDATION_ERROR');
    expect(refused.body.error.details[0].path).toBe('quantity_on_hand');
    const patch = await call('PATCH', `/v1/products/${tracked.id}`, {
      token: practice.adminToken,
      body: { tracks_lots: false },
    });
    expectError(patch, 400, 'VALIDATION_ERROR');
    const plain = await makeProduct(practice);
    expect(plain.tracks_lots).toBe(false);
    expectError(await postLot(practice, plain.id, { lot_number: 'A1', expires_on: '2030-01-01' }), 409, 'CONFLICT');
  });

  it('roles: managers create lots, the front desk may not; every role reading the catalog reads lots, providers included', async () => {
    const lot = await makeLot(practice, tracked.id);
    const frontDesk = await practice.tokenForRole('front_desk');
    expectError(
      await postLot(practice, tracked.id, { lot_number: 'FD-1', expires_on: '2030-01-01' }, frontDesk),
      403,
      'FORBIDDEN',
    );
    const manager = await practice.tokenForRole('manager');
    expect(
      (await postLot(practice, tracked.id, { lot_number: 'MG-1', expires_on: '2030-01-01' }, manager)).status,
    ).toBe(201);
    for (const role of ['provider', 'analyst', 'front_desk'] as const) {
      const token = await practice.tokenForRole(role);
      expect((await call('GET', `/v1/lots/${lot.id}`, { token })).status, role).toBe(200);
      expect((await call('GET', `/v1/products/${tracked.id}/lots`, { token })).status, role).toBe(200);
    }
  });
});

describe('LOT_EXISTS: lot numbers are unique per product', () => {
  it('refuses the same number in another case with 409 LOT_EXISTS; another product may use it', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const first = (await postLot(practice, product.id, { lot_number: 'Ab-77', expires_on: '2030-01-01' })).body.data;
    const again = await postLot(practice, product.id, { lot_number: ' aB-77 ', expires_on: '2031-01-01' });
    expectError(again, 409, 'LOT_EXISTS');
    expect(again.body.error.details).toEqual([{ path: 'lot_number', message: `already used by lot ${first.id}` }]);
    expect((await postLot(practice, tracked.id, { lot_number: 'AB-77', expires_on: '2030-01-01' })).status).toBe(201);
  });

  it('of 6 concurrent creates of one lot number exactly one wins, and only its lot exists', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postLot(practice, product.id, { lot_number: i % 2 ? 'RACE-1' : 'race-1', expires_on: '2030-01-01' }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 201)) expectError(r, 409, 'LOT_EXISTS');
    expect((await get(practice, `/v1/products/${product.id}/lots`)).data).toHaveLength(1);
  });
});

describe('stock adjustments of a lot-tracked product', () => {
  it('name lot_id (400 without it; 400 with one on an untracked product; a lot of another product is 404)', async () => {
    const lot = await makeLot(practice, tracked.id, {}, 3);
    const without = await adjust(practice, tracked.id, { delta: -1, reason: 'sale' });
    expectError(without, 400, 'VALIDATION_ERROR');
    expect(without.body.error.details).toEqual([{ path: 'lot_id', message: expect.stringContaining('required') }]);
    const plain = await makeProduct(practice, { quantity_on_hand: 4 });
    const withLot = await adjust(practice, plain.id, { delta: -1, reason: 'sale', lot_id: lot.id });
    expectError(withLot, 400, 'VALIDATION_ERROR');
    expect(withLot.body.error.details[0].path).toBe('lot_id');
    const otherProduct = await makeProduct(practice, { tracks_lots: true });
    expectError(
      await adjust(practice, otherProduct.id, { delta: 1, reason: 'received', lot_id: lot.id }),
      404,
      'LOT_NOT_FOUND',
    );
    expectError(
      await adjust(practice, tracked.id, { delta: 1, reason: 'received', lot_id: randomUUID() }),
      404,
      'LOT_NOT_FOUND',
    );
    expectError(
      await adjust(practice, tracked.id, { delta: 1, reason: 'received', lot_id: 'nope' }),
      404,
      'LOT_NOT_FOUND',
    );
    // An untracked product moves as before, without a lot.
    const sold = await adjust(practice, plain.id, { delta: -1, reason: 'sale' });
    expect(sold.status).toBe(201);
    expect(sold.body.data).toMatchObject({ quantity_after: 3, lot_id: null, appointment_id: null });
  });

  it('reason treatment is refused on the public route (400: written only by treatment records)', async () => {
    const lot = await makeLot(practice, tracked.id, {}, 2);
    const response = await adjust(practice, tracked.id, { delta: -1, reason: 'treatment', lot_id: lot.id });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details[0]).toMatchObject({
      path: 'reason',
      message: expect.stringContaining('treatment records'),
    });
    expect((await get(practice, `/v1/lots/${lot.id}`)).data.quantity_on_hand).toBe(2);
  });

  it('moves the lot with the product in one write; the product is the sum of its lots; entries name the lot', async () => {
    const product = await makeProduct(practice, { tracks_lots: true, low_stock_threshold: 3 });
    const a = await makeLot(practice, product.id, { expires_on: '2030-01-01' });
    const b = await makeLot(practice, product.id, { expires_on: '2031-01-01' });
    const received = await adjust(practice, product.id, { delta: 5, reason: 'received', lot_id: a.id });
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect(received.body.data).toMatchObject({ delta: 5, quantity_after: 5, lot_id: a.id, appointment_id: null });
    await adjust(practice, product.id, { delta: 4, reason: 'received', lot_id: b.id });
    await adjust(practice, product.id, { delta: -2, reason: 'damaged', lot_id: b.id });
    const sold = await adjust(practice, product.id, { delta: -5, reason: 'sale', lot_id: a.id });
    expect(sold.body.data).toMatchObject({ quantity_after: 2, lot_id: a.id, low_stock_crossed: true });
    const stock = await stockOf(practice, product.id);
    expect(stock.lots.map((l: any) => l.quantity_on_hand)).toEqual([0, 2]);
    expect(stock.product).toMatchObject({ quantity_on_hand: 2, low_stock: true });
    expect(stock.lotSum).toBe(stock.product.quantity_on_hand);
    expect(stock.ledger.map((e: any) => [e.delta, e.lot_id])).toEqual([
      [-5, a.id],
      [-2, b.id],
      [4, b.id],
      [5, a.id],
    ]);
    // The lot's own floor: 409 INSUFFICIENT_STOCK although the product has units (in another lot).
    expectError(
      await adjust(practice, product.id, { delta: -1, reason: 'sale', lot_id: a.id }),
      409,
      'INSUFFICIENT_STOCK',
    );
  });

  it('10 concurrent sales from a lot with 6 units: exactly 6 succeed, never below zero, product = sum of lots', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const short = await makeLot(practice, product.id, {}, 6);
    await makeLot(practice, product.id, {}, 10);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => adjust(practice, product.id, { delta: -1, reason: 'sale', lot_id: short.id })),
    );
    const won = responses.filter((r) => r.status === 201);
    expect(won).toHaveLength(6);
    for (const r of responses.filter((r) => r.status !== 201)) expectError(r, 409, 'INSUFFICIENT_STOCK');
    // Each success left the product one lower than the state it was conditioned on: 15, 14, ..., 10, once each.
    expect(won.map((r) => r.body.data.quantity_after).sort((x, y) => y - x)).toEqual([15, 14, 13, 12, 11, 10]);
    const stock = await stockOf(practice, product.id);
    expect(stock.lots.find((l: any) => l.id === short.id).quantity_on_hand).toBe(0);
    expect(stock.product.quantity_on_hand).toBe(10);
    expect(stock.lotSum).toBe(10);
    expect(stock.ledger.filter((e: any) => e.reason === 'sale')).toHaveLength(6);
  });

  it('a recalled lot is refused for sale (409 LOT_RECALLED, nothing changed) but may still be disposed of', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const lot = await makeLot(practice, product.id, {}, 4);
    await recallBelowHttp(practice.medspaId, lot.id);
    const before = await stockOf(practice, product.id);
    expectError(await adjust(practice, product.id, { delta: -1, reason: 'sale', lot_id: lot.id }), 409, 'LOT_RECALLED');
    expect(await stockOf(practice, product.id)).toEqual(before);
    const disposed = await adjust(practice, product.id, { delta: -4, reason: 'damaged', lot_id: lot.id });
    expect(disposed.status, JSON.stringify(disposed.body)).toBe(201);
    expect((await stockOf(practice, product.id)).product.quantity_on_hand).toBe(0);
  });

  it('an expired lot is refused for sale (409 LOT_EXPIRED, nothing changed) but may be received, corrected and disposed of', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const lot = await makeLot(practice, product.id, { expires_on: '2020-01-31' }, 3);
    const before = await stockOf(practice, product.id);
    expectError(await adjust(practice, product.id, { delta: -1, reason: 'sale', lot_id: lot.id }), 409, 'LOT_EXPIRED');
    expect(await stockOf(practice, product.id)).toEqual(before);
    expect((await adjust(practice, product.id, { delta: -3, reason: 'damaged', lot_id: lot.id })).status).toBe(201);
  });
});

describe("expiry is judged on the practice's local date", () => {
  it('a lot expiring today (New York) sells at 23:30 local, though UTC is already tomorrow; the next local day it is refused', async () => {
    const caller = { medspaId: practice.medspaId, clientId: practice.clientId, role: 'admin' as const };
    const product = await makeProduct(practice, { tracks_lots: true });
    const lot = await makeLot(practice, product.id, { expires_on: '2026-03-09' }, 2);
    const sale = { delta: -1, reason: 'sale' as const, lot_id: lot.id };
    // 2026-03-10T03:30Z is 2026-03-09 23:30 in New York (EDT, the practice's zone); 05:00Z is 01:00 on the 10th.
    const sold = await createStockAdjustment(caller, product.id, sale, new Date('2026-03-10T03:30:00Z'));
    expect(sold.quantity_after).toBe(1);
    await expect(
      createStockAdjustment(caller, product.id, sale, new Date('2026-03-10T05:00:00Z')),
    ).rejects.toMatchObject({ code: 'LOT_EXPIRED' });
    expect((await get(practice, `/v1/lots/${lot.id}`)).data.quantity_on_hand).toBe(1);
  });
});

describe('stock-move items inside another transaction (what treatment records use)', () => {
  it('take and give back by lot with reason treatment and appointment_id; a recalled lot is refused with nothing written', async () => {
    const product = await makeProduct(practice, { tracks_lots: true });
    const lot = await makeLot(practice, product.id, {}, 5);
    const recalled = await makeLot(practice, product.id, {}, 2);
    await recallBelowHttp(practice.medspaId, recalled.id);
    const read = async () =>
      productCodec.fromItem(
        (
          await ddb().send(
            new GetCommand({
              TableName: tableName(),
              Key: entityKey(practice.medspaId, 'PRODUCT', product.id),
              ConsistentRead: true,
            }),
          )
        ).Item,
      )!;
    const appointmentId = randomUUID();
    const move = (delta: number, lotId: string, state: Awaited<ReturnType<typeof read>>) =>
      stockMoveActions({
        product: state,
        reason: 'treatment',
        lines: [{ id: randomUUID(), delta, lot_id: lotId, unit_price_cents: null, note: null }],
        appointment_id: appointmentId,
        created_by: practice.clientId,
        at: new Date().toISOString(),
        usableOn: '2026-01-01',
      });
    // Another item of the caller's own commits with it (here a marker standing in for the record).
    const marker = {
      name: 'record',
      action: { Put: { TableName: tableName(), Item: { pk: `TEST#${appointmentId}`, sk: 'RECORD' } } },
    };
    const taken = move(-3, lot.id, await read());
    expect(await transact([...taken.actions, marker])).toEqual({ ok: true });
    expect(taken.entries[0]).toMatchObject({
      reason: 'treatment',
      appointment_id: appointmentId,
      lot_id: lot.id,
      quantity_after: 4,
    });
    const given = move(1, lot.id, await read());
    expect(await transact(given.actions)).toEqual({ ok: true });
    const refused = await transact(move(-1, recalled.id, await read()).actions);
    expect(refused.ok).toBe(false);
    expect(stockMoveFailure(refused.ok ? [] : refused.failed)).toMatchObject({
      failed: 'lot',
      refusal: 'LOT_RECALLED',
    });
    const stock = await stockOf(practice, product.id);
    expect(stock.product.quantity_on_hand).toBe(5);
    expect(stock.lotSum).toBe(5);
    const treatments = stock.ledger.filter((e: any) => e.reason === 'treatment');
    expect(treatments.map((e: any) => [e.delta, e.appointment_id]).sort()).toEqual([
      [-3, appointmentId],
      [1, appointmentId],
    ]);
    const { Item } = await ddb().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `TEST#${appointmentId}`, sk: 'RECORD' } }),
    );
    expect(Item).toBeDefined();
  });
});

describe('DynamoDB calls', () => {
  it('a lot create is one read and one transaction; a lot sale one batched read (product and practice) and one transaction; a receipt one and one', async () => {
    const caller = { medspaId: practice.medspaId, clientId: practice.clientId, role: 'admin' as const };
    const product = await makeProduct(practice, { tracks_lots: true });
    const created = await counted(() =>
      createLot(practice.medspaId, product.id, { lot_number: 'CNT-1', expires_on: '2030-01-01' }, new Date()),
    );
    expect(created.calls).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const lotId = created.result.id;
    expect(
      (
        await counted(() =>
          createStockAdjustment(caller, product.id, { delta: 3, reason: 'received', lot_id: lotId }, new Date()),
        )
      ).calls,
    ).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(
      (
        await counted(() =>
          createStockAdjustment(caller, product.id, { delta: -1, reason: 'sale', lot_id: lotId }, new Date()),
        )
      ).calls,
      // The two reads go out together, coalesced into one BatchGetItem (lib/db/key-reads.ts).
    ).toEqual({ BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
  });
});
