import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, ddbCalls, tableName } from '../../lib/db/client';
import { entityKey, lowStockEventsPk, retailSalesIndexPk } from '../../lib/db/keys';
import { changeProduct, createProduct, createStockAdjustment } from '../../lib/use-cases/products';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeProduct } from '../fixtures/builders';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.success).toBe(false);
  expect(response.body.error.code).toBe(code);
};

const tally = (responses: { status: number; body: any }[]) => {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const key = r.status < 300 ? String(r.status) : `${r.status} ${r.body.error.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

const adjust = (
  practice: TestPractice,
  productId: string,
  body: Record<string, unknown>,
  token = practice.adminToken,
) => call('POST', `/v1/products/${productId}/stock-adjustments`, { token, body });

const sell = (practice: TestPractice, productId: string, units = 1) =>
  adjust(practice, productId, { delta: -units, reason: 'sale' });

const getProduct = async (practice: TestPractice, id: string) => {
  const response = await call('GET', `/v1/products/${id}`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};

const ledger = async (practice: TestPractice, productId: string, query = 'limit=100') => {
  const response = await call('GET', `/v1/products/${productId}/stock-adjustments?${query}`, {
    token: practice.adminToken,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { data: any[]; pagination: { total: number; next_cursor: string | null } };
};

const lowStockIds = async (practice: TestPractice, extra = '') => {
  const response = await call('GET', `/v1/products?low_stock=true&limit=100${extra}`, { token: practice.adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.pagination.total).toBe(response.body.data.length);
  return response.body.data.map((p: { id: string }) => p.id).sort();
};

/** The crossing records the webhook pipeline will turn into `product.low_stock`. */
async function crossingRecords(medspaId: string, productId: string) {
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': lowStockEventsPk(medspaId) },
      ConsistentRead: true,
    }),
  );
  return Items.filter((item) => item.product_id === productId);
}

/** The stored invariant: headroom = quantity - threshold, and the sparse index key exactly while low. */
async function expectStoredConsistent(medspaId: string, productId: string) {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, 'PRODUCT', productId), ConsistentRead: true }),
  );
  expect(Item!.headroom).toBe(Item!.quantity_on_hand - Item!.low_stock_threshold);
  expect(Item!.gsi2pk !== undefined).toBe(Item!.quantity_on_hand <= Item!.low_stock_threshold);
}

let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

describe('products: create, read, change', () => {
  it('creates with defaults and a derived low_stock; GET returns it with an ETag; nothing internal leaks', async () => {
    const response = await call('POST', '/v1/products', {
      token: practice.adminToken,
      body: { name: 'Vitamin C Serum', sku: 'VC-30', price_cents: 9900 },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const product = response.body.data;
    expect(product.id).toMatch(UUID);
    expect(product).toEqual({
      id: product.id,
      medspa_id: practice.medspaId,
      name: 'Vitamin C Serum',
      sku: 'VC-30',
      brand: null,
      category: null,
      price_cents: 9900,
      cost_cents: null,
      quantity_on_hand: 0,
      low_stock_threshold: 0,
      low_stock: true,
      active: true,
      tracks_lots: false,
      version: 1,
      created_at: product.created_at,
      updated_at: product.created_at,
    });
    const got = await call('GET', `/v1/products/${product.id}`, { token: practice.adminToken });
    expect(got.headers.etag).toBe('"1"');
    expect(got.body.data).toEqual(product);
  });

  it('PATCH changes the given fields (version + 1), honours If-Match, and deactivates instead of deleting', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 5, low_stock_threshold: 1 });
    const url = `/v1/products/${product.id}`;
    const updated = await call('PATCH', url, {
      token: practice.adminToken,
      body: { price_cents: 5200, brand: null, active: false },
      headers: { 'if-match': '"1"' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toEqual({
      ...product,
      price_cents: 5200,
      brand: null,
      active: false,
      version: 2,
      updated_at: updated.body.data.updated_at,
    });
    expect(updated.headers.etag).toBe('"2"');
    expectError(
      await call('PATCH', url, { token: practice.adminToken, body: { name: 'X' }, headers: { 'if-match': '1' } }),
      409,
      'VERSION_CONFLICT',
    );
    expect(await getProduct(practice, product.id)).toEqual(updated.body.data);
    expectError(await call('DELETE', url, { token: practice.adminToken }), 404, 'NOT_FOUND');
  });

  it('refuses a PATCH of quantity_on_hand: it changes only through stock adjustments', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 5 });
    const response = await call('PATCH', `/v1/products/${product.id}`, {
      token: practice.adminToken,
      body: { quantity_on_hand: 50, name: 'Renamed' },
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual([
      { path: 'quantity_on_hand', message: expect.stringContaining('stock adjustments') },
    ]);
    expect(await getProduct(practice, product.id)).toEqual(product);
  });

  it.each([
    ['a missing sku', { name: 'A', price_cents: 100 }, 'sku'],
    ['a blank name', { name: ' ', sku: 'X-1', price_cents: 100 }, 'name'],
    ['a negative price', { name: 'A', sku: 'X-1', price_cents: -1 }, 'price_cents'],
    ['a fractional price', { name: 'A', sku: 'X-1', price_cents: 10.5 }, 'price_cents'],
    ['a negative quantity', { name: 'A', sku: 'X-1', price_cents: 100, quantity_on_hand: -1 }, 'quantity_on_hand'],
    [
      'a negative threshold',
      { name: 'A', sku: 'X-1', price_cents: 100, low_stock_threshold: -2 },
      'low_stock_threshold',
    ],
    ['a sku with control characters', { name: 'A', sku: 'X\n1', price_cents: 100 }, 'sku'],
    ['an unknown field', { name: 'A', sku: 'X-1', price_cents: 100, colour: 'red' }, 'colour'],
  ])('rejects %s with 400 and writes nothing', async (_label, body, path) => {
    const fresh = await makePractice();
    const response = await call('POST', '/v1/products', { token: fresh.adminToken, body });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await call('GET', '/v1/products', { token: fresh.adminToken })).body.pagination.total).toBe(0);
  });

  it('answers 404 PRODUCT_NOT_FOUND for unknown and malformed ids, on every verb', async () => {
    for (const id of ['not-a-uuid', randomUUID(), 'x'.repeat(300)]) {
      expectError(await call('GET', `/v1/products/${id}`, { token: practice.adminToken }), 404, 'PRODUCT_NOT_FOUND');
      expectError(
        await call('PATCH', `/v1/products/${id}`, { token: practice.adminToken, body: { name: 'X' } }),
        404,
        'PRODUCT_NOT_FOUND',
      );
      expectError(await adjust(practice, id, { delta: 1, reason: 'received' }), 404, 'PRODUCT_NOT_FOUND');
      expectError(
        await call('GET', `/v1/products/${id}/stock-adjustments`, { token: practice.adminToken }),
        404,
        'PRODUCT_NOT_FOUND',
      );
    }
  });

  it('lists in pages with a total, and filters by category', async () => {
    const fresh = await makePractice();
    const made = [
      await makeProduct(fresh, { category: 'skincare' }),
      await makeProduct(fresh, { category: 'sun care' }),
      await makeProduct(fresh, { category: 'skincare' }),
    ];
    const first = await call('GET', '/v1/products?limit=2', { token: fresh.adminToken });
    expect(first.body.pagination.total).toBe(3);
    expect(first.body.data).toHaveLength(2);
    const second = await call('GET', `/v1/products?limit=2&cursor=${first.body.pagination.next_cursor}`, {
      token: fresh.adminToken,
    });
    expect(second.body.pagination.next_cursor).toBeNull();
    expect([...first.body.data, ...second.body.data].map((p: { id: string }) => p.id).sort()).toEqual(
      made.map((p) => p.id).sort(),
    );
    const skincare = await call('GET', '/v1/products?category=skincare', { token: fresh.adminToken });
    expect(skincare.body.data.map((p: { id: string }) => p.id).sort()).toEqual([made[0].id, made[2].id].sort());
    expect(skincare.body.pagination.total).toBe(2);
  });
});

describe('SKU uniqueness per practice (case-insensitive)', () => {
  it('refuses the same SKU in another case with 409 CONFLICT on sku; a SKU change frees the old one', async () => {
    const fresh = await makePractice();
    const first = await makeProduct(fresh, { sku: 'AB-100' });
    const duplicate = await call('POST', '/v1/products', {
      token: fresh.adminToken,
      body: { name: 'Copy', sku: 'ab-100', price_cents: 100 },
    });
    expectError(duplicate, 409, 'CONFLICT');
    expect(duplicate.body.error.message).toMatch(/SKU "ab-100" already exists/);
    expect(duplicate.body.error.details).toEqual([{ path: 'sku', message: `already used by product ${first.id}` }]);

    const second = await makeProduct(fresh, { sku: 'CD-200' });
    expectError(
      await call('PATCH', `/v1/products/${second.id}`, { token: fresh.adminToken, body: { sku: 'Ab-100' } }),
      409,
      'CONFLICT',
    );
    expect((await getProduct(fresh, second.id)).sku).toBe('CD-200');

    // A change of case only keeps the claim; a new SKU moves it.
    expect(
      (await call('PATCH', `/v1/products/${first.id}`, { token: fresh.adminToken, body: { sku: 'ab-100' } })).body.data
        .sku,
    ).toBe('ab-100');
    const moved = await call('PATCH', `/v1/products/${first.id}`, { token: fresh.adminToken, body: { sku: 'AB-101' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ sku: 'AB-101', version: 3 });
    expect(
      (
        await call('POST', '/v1/products', {
          token: fresh.adminToken,
          body: { name: 'Reuse', sku: 'AB-100', price_cents: 100 },
        })
      ).status,
    ).toBe(201);
    expectError(
      await call('POST', '/v1/products', {
        token: fresh.adminToken,
        body: { name: 'Taken', sku: 'ab-101', price_cents: 100 },
      }),
      409,
      'CONFLICT',
    );
    expect((await call('GET', '/v1/products', { token: fresh.adminToken })).body.pagination.total).toBe(3);
  });

  it('of 10 concurrent creates with one SKU exactly one wins; another practice may use it too', async () => {
    const fresh = await makePractice();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', '/v1/products', {
          token: fresh.adminToken,
          body: { name: `P${i}`, sku: i % 2 ? 'RACE-1' : 'race-1', price_cents: 100 },
        }),
      ),
    );
    expect(tally(responses)).toEqual({ '201': 1, '409 CONFLICT': 9 });
    expect((await call('GET', '/v1/products', { token: fresh.adminToken })).body.pagination.total).toBe(1);
    expect(
      (
        await call('POST', '/v1/products', {
          token: practice.adminToken,
          body: { name: 'Elsewhere', sku: 'RACE-1', price_cents: 100 },
        })
      ).status,
    ).toBe(201);
  });
});

describe('stock adjustments', () => {
  it('answers the adjustment and moves the product; sales default to the product price', async () => {
    const product = await makeProduct(practice, { price_cents: 4800, quantity_on_hand: 0, low_stock_threshold: 2 });
    const received = await adjust(practice, product.id, {
      delta: 12,
      reason: 'received',
      unit_price_cents: 2000,
      note: 'PO 1182',
    });
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect(received.body.data).toEqual({
      id: expect.stringMatching(UUID),
      product_id: product.id,
      delta: 12,
      reason: 'received',
      unit_price_cents: 2000,
      note: 'PO 1182',
      quantity_after: 12,
      low_stock_crossed: false,
      lot_id: null,
      appointment_id: null,
      created_at: expect.any(String),
      created_by: practice.clientId,
    });
    const sale = await adjust(practice, product.id, { delta: -2, reason: 'sale' });
    expect(sale.body.data).toMatchObject({
      delta: -2,
      reason: 'sale',
      unit_price_cents: 4800,
      note: null,
      quantity_after: 10,
    });
    const discounted = await adjust(practice, product.id, { delta: -1, reason: 'sale', unit_price_cents: 3900 });
    expect(discounted.body.data).toMatchObject({ unit_price_cents: 3900, quantity_after: 9 });
    expect(await getProduct(practice, product.id)).toMatchObject({ quantity_on_hand: 9, low_stock: false, version: 4 });
    await expectStoredConsistent(practice.medspaId, product.id);

    // Sales (only) are on the practice's monthly retail-sales index, for revenue reports.
    const month = sale.body.data.created_at.slice(0, 7);
    const { Items = [] } = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': retailSalesIndexPk(practice.medspaId, month) },
      }),
    );
    expect(
      Items.filter((item) => item.product_id === product.id)
        .map((item) => [item.delta, item.unit_price_cents])
        .sort(),
    ).toEqual([
      [-1, 3900],
      [-2, 4800],
    ]);
  });

  it.each([
    ['a positive sale', { delta: 1, reason: 'sale' }],
    ['a negative receipt', { delta: -1, reason: 'received' }],
    ['a negative return', { delta: -1, reason: 'return' }],
    ['a positive damage', { delta: 2, reason: 'damaged' }],
    ['a zero delta', { delta: 0, reason: 'correction' }],
    ['a fractional delta', { delta: 1.5, reason: 'received' }],
    ['an unknown reason', { delta: 1, reason: 'gift' }],
    ['a negative unit price', { delta: -1, reason: 'sale', unit_price_cents: -5 }],
  ])('rejects %s with 400 on delta/fields and changes nothing', async (_label, body) => {
    const product = await makeProduct(practice, { quantity_on_hand: 5 });
    const response = await adjust(practice, product.id, body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details.length).toBeGreaterThan(0);
    expect(await getProduct(practice, product.id)).toEqual(product);
    expect((await ledger(practice, product.id)).pagination.total).toBe(0);
  });

  it('corrections go either way; damaged and return take their sign', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 5 });
    for (const [delta, reason, after] of [
      [-2, 'correction', 3],
      [4, 'correction', 7],
      [-1, 'damaged', 6],
      [1, 'return', 7],
    ] as const) {
      const response = await adjust(practice, product.id, { delta, reason });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.data.quantity_after).toBe(after);
    }
    expect((await getProduct(practice, product.id)).quantity_on_hand).toBe(7);
  });

  it('never goes below zero: 409 INSUFFICIENT_STOCK and nothing written', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 2 });
    expectError(await sell(practice, product.id, 3), 409, 'INSUFFICIENT_STOCK');
    expectError(await adjust(practice, product.id, { delta: -3, reason: 'correction' }), 409, 'INSUFFICIENT_STOCK');
    expect(await getProduct(practice, product.id)).toEqual(product);
    expect((await ledger(practice, product.id)).pagination.total).toBe(0);
    expect((await sell(practice, product.id, 2)).status).toBe(201);
    expect((await getProduct(practice, product.id)).quantity_on_hand).toBe(0);
  });

  it('40 concurrent sales of one unit from 25: exactly 25 succeed, 15 are INSUFFICIENT_STOCK, the ledger has the 25', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 25, low_stock_threshold: 5 });
    const responses = await Promise.all(Array.from({ length: 40 }, () => sell(practice, product.id)));
    expect(tally(responses)).toEqual({ '201': 25, '409 INSUFFICIENT_STOCK': 15 });
    expect(await getProduct(practice, product.id)).toMatchObject({ quantity_on_hand: 0, low_stock: true, version: 26 });
    const entries = await ledger(practice, product.id);
    expect(entries.pagination.total).toBe(25);
    expect(entries.data.filter((entry) => entry.reason === 'sale' && entry.delta === -1)).toHaveLength(25);
    // One crossing (6 -> 5), recorded once, by the adjustment that made it.
    expect(responses.filter((r) => r.body.data?.low_stock_crossed)).toHaveLength(1);
    expect(entries.data.filter((entry) => entry.low_stock_crossed)).toHaveLength(1);
    expect(await crossingRecords(practice.medspaId, product.id)).toHaveLength(1);
    await expectStoredConsistent(practice.medspaId, product.id);
    // Each ledger entry carries the quantity right after its own commit: 24..0, each once.
    expect(entries.data.map((entry) => entry.quantity_after).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i),
    );
  });

  it('14 concurrent sales from 14: quantity_after is exactly 13, 12, ..., 0, each once, in the answers and in the ledger', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 14, low_stock_threshold: 3 });
    const responses = await Promise.all(Array.from({ length: 14 }, () => sell(practice, product.id)));
    expect(tally(responses)).toEqual({ '201': 14 });
    const expected = Array.from({ length: 14 }, (_, i) => i);
    expect(responses.map((r) => r.body.data.quantity_after).sort((a, b) => a - b)).toEqual(expected);
    const entries = await ledger(practice, product.id);
    expect(entries.data.map((entry) => entry.quantity_after).sort((a, b) => a - b)).toEqual(expected);
    // The crossing (4 -> 3) is the entry whose quantity_after is the threshold, and only that one.
    expect(entries.data.filter((entry) => entry.low_stock_crossed).map((entry) => entry.quantity_after)).toEqual([3]);
    expect(await getProduct(practice, product.id)).toMatchObject({ quantity_on_hand: 0, version: 15 });
    await expectStoredConsistent(practice.medspaId, product.id);
  });

  it('mixed concurrent movements chain exactly: every entry starts where another ended', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 10, low_stock_threshold: 2 });
    const moves = [-3, 5, -2, -1, 7, -4, 2, -1, -5, 3];
    const responses = await Promise.all(
      moves.map((delta) => adjust(practice, product.id, { delta, reason: delta < 0 ? 'sale' : 'received' })),
    );
    const committed = responses
      .filter((r) => r.status === 201)
      .map((r) => r.body.data as { delta: number; quantity_after: number });
    expect(responses.every((r) => r.status === 201 || r.body.error?.code === 'INSUFFICIENT_STOCK')).toBe(true);
    // Exact entries chain: the quantities they start from are the initial 10 and every quantity an
    // entry left except the last one (each entry starts where exactly one other ended).
    const final = (await getProduct(practice, product.id)).quantity_on_hand;
    const starts = committed.map((entry) => entry.quantity_after - entry.delta).sort((a, b) => a - b);
    const ends = [10, ...committed.map((entry) => entry.quantity_after)];
    ends.splice(ends.indexOf(final), 1);
    expect(starts).toEqual(ends.sort((a, b) => a - b));
    expect(final).toBe(10 + committed.reduce((sum, entry) => sum + entry.delta, 0));
  });

  it('the ledger is newest first, paged, with a total', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 10 });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await sell(practice, product.id)).body.data.id);
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof ledger>> = await ledger(
        practice,
        product.id,
        `limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.pagination.total).toBe(5);
      seen.push(...page.data);
      cursor = page.pagination.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((entry) => entry.id).sort()).toEqual([...made].sort());
    const times = seen.map((entry) => entry.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(seen.map((entry) => entry.quantity_after).sort()).toEqual([5, 6, 7, 8, 9]);
  });
});

describe('low stock', () => {
  it('records a crossing once, even among concurrent sales; a restock and a new crossing record again', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 10, low_stock_threshold: 5 });
    const first = await Promise.all(Array.from({ length: 10 }, () => sell(practice, product.id)));
    expect(tally(first)).toEqual({ '201': 10 });
    expect(first.filter((r) => r.body.data.low_stock_crossed)).toHaveLength(1);
    expect(first.find((r) => r.body.data.low_stock_crossed)!.body.data.quantity_after).toBe(5);
    expect(await crossingRecords(practice.medspaId, product.id)).toHaveLength(1);

    // Back above the threshold: no record; selling into it again: a second record.
    expect((await adjust(practice, product.id, { delta: 20, reason: 'received' })).body.data).toMatchObject({
      quantity_after: 20,
      low_stock_crossed: false,
    });
    expect(await lowStockIds(practice)).not.toContain(product.id);
    const again = await sell(practice, product.id, 15);
    expect(again.body.data).toMatchObject({ quantity_after: 5, low_stock_crossed: true });
    expect((await sell(practice, product.id, 1)).body.data.low_stock_crossed).toBe(false);
    const records = await crossingRecords(practice.medspaId, product.id);
    expect(records).toHaveLength(2);
    expect(records.map((r) => r.adjustment_id)).toContain(again.body.data.id);
    expect((await ledger(practice, product.id)).data.filter((entry) => entry.low_stock_crossed)).toHaveLength(2);
    await expectStoredConsistent(practice.medspaId, product.id);
  });

  it('?low_stock=true lists exactly the low products, through the index, and follows stock and threshold changes at once', async () => {
    const fresh = await makePractice();
    const plenty = await makeProduct(fresh, { quantity_on_hand: 10, low_stock_threshold: 2, category: 'skincare' });
    const short = await makeProduct(fresh, { quantity_on_hand: 1, low_stock_threshold: 3, category: 'skincare' });
    const empty = await makeProduct(fresh, { quantity_on_hand: 0, low_stock_threshold: 0, category: 'aftercare' });
    expect(await lowStockIds(fresh)).toEqual([short.id, empty.id].sort());
    expect(await lowStockIds(fresh, '&category=skincare')).toEqual([short.id]);
    const notLow = await call('GET', '/v1/products?low_stock=false', { token: fresh.adminToken });
    expect(notLow.body.data.map((p: { id: string }) => p.id)).toEqual([plenty.id]);
    expect(notLow.body.data[0].low_stock).toBe(false);

    ddbCalls.reset();
    await call('GET', '/v1/products?low_stock=true', { token: fresh.adminToken });
    expect(ddbCalls.counts.get('ScanCommand')).toBeUndefined();

    await sell(fresh, plenty.id, 8); // 2 <= 2: low
    await adjust(fresh, short.id, { delta: 5, reason: 'received' }); // 6 > 3: not low
    expect(await lowStockIds(fresh)).toEqual([plenty.id, empty.id].sort());

    // Thresholds move products in and out too (no crossing record: the stock did not move).
    expect(
      (await call('PATCH', `/v1/products/${plenty.id}`, { token: fresh.adminToken, body: { low_stock_threshold: 1 } }))
        .body.data,
    ).toMatchObject({ low_stock: false, low_stock_threshold: 1 });
    expect(
      (await call('PATCH', `/v1/products/${short.id}`, { token: fresh.adminToken, body: { low_stock_threshold: 6 } }))
        .body.data,
    ).toMatchObject({ low_stock: true, quantity_on_hand: 6 });
    expect(await lowStockIds(fresh)).toEqual([short.id, empty.id].sort());
    for (const p of [plenty, short, empty]) await expectStoredConsistent(fresh.medspaId, p.id);

    // From the new threshold on, crossings follow it: plenty (2, threshold 1) crosses at 1.
    expect((await sell(fresh, plenty.id, 1)).body.data.low_stock_crossed).toBe(true);
    expect((await sell(fresh, short.id, 1)).body.data.low_stock_crossed).toBe(false);
    expect(await lowStockIds(fresh)).toEqual([plenty.id, short.id, empty.id].sort());
  });

  it('a threshold change racing with sales leaves headroom and the index consistent', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 30, low_stock_threshold: 5 });
    const [patched, ...sales] = await Promise.all([
      call('PATCH', `/v1/products/${product.id}`, { token: practice.adminToken, body: { low_stock_threshold: 20 } }),
      ...Array.from({ length: 15 }, () => sell(practice, product.id)),
    ]);
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(tally(sales)).toEqual({ '201': 15 });
    expect(await getProduct(practice, product.id)).toMatchObject({
      quantity_on_hand: 15,
      low_stock_threshold: 20,
      low_stock: true,
    });
    await expectStoredConsistent(practice.medspaId, product.id);
    expect(await lowStockIds(practice)).toContain(product.id);
  });
});

describe('roles and practice isolation', () => {
  it('front desk: reads and records sales, but no other movement and no catalog changes', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 5 });
    const token = await practice.tokenForRole('front_desk');
    expect((await call('GET', `/v1/products/${product.id}`, { token })).status).toBe(200);
    expect((await adjust(practice, product.id, { delta: -1, reason: 'sale' }, token)).status).toBe(201);
    expectError(await adjust(practice, product.id, { delta: 5, reason: 'received' }, token), 403, 'FORBIDDEN');
    expectError(await adjust(practice, product.id, { delta: -1, reason: 'damaged' }, token), 403, 'FORBIDDEN');
    expectError(
      await call('POST', '/v1/products', { token, body: { name: 'X', sku: 'FD-1', price_cents: 1 } }),
      403,
      'FORBIDDEN',
    );
    expectError(await call('PATCH', `/v1/products/${product.id}`, { token, body: { name: 'X' } }), 403, 'FORBIDDEN');
    expect((await call('GET', `/v1/products/${product.id}/stock-adjustments`, { token })).body.pagination.total).toBe(
      1,
    );
    expect((await getProduct(practice, product.id)).quantity_on_hand).toBe(4);
  });

  it('analyst reads products and the ledger but adjusts nothing; a provider sees no inventory', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 5 });
    const analyst = await practice.tokenForRole('analyst');
    expect((await call('GET', '/v1/products?low_stock=true', { token: analyst })).status).toBe(200);
    expect((await call('GET', `/v1/products/${product.id}/stock-adjustments`, { token: analyst })).status).toBe(200);
    const provider = await practice.tokenForRole('provider');
    expectError(await call('GET', '/v1/products', { token: provider }), 403, 'FORBIDDEN');
    expectError(
      await call('GET', `/v1/products/${product.id}/stock-adjustments`, { token: provider }),
      403,
      'FORBIDDEN',
    );
    for (const token of [analyst, provider])
      expectError(await adjust(practice, product.id, { delta: -1, reason: 'sale' }, token), 403, 'FORBIDDEN');
    expect((await getProduct(practice, product.id)).quantity_on_hand).toBe(5);
  });

  it('another practice can neither read nor adjust a product, nor see it in its lists', async () => {
    const product = await makeProduct(practice, { quantity_on_hand: 0, low_stock_threshold: 3 });
    const other = await makePractice();
    const token = other.adminToken;
    expectError(await call('GET', `/v1/products/${product.id}`, { token }), 404, 'PRODUCT_NOT_FOUND');
    expectError(
      await call('PATCH', `/v1/products/${product.id}`, { token, body: { name: 'Mine' } }),
      404,
      'PRODUCT_NOT_FOUND',
    );
    expectError(await adjust(other, product.id, { delta: 5, reason: 'received' }), 404, 'PRODUCT_NOT_FOUND');
    expectError(await call('GET', `/v1/products/${product.id}/stock-adjustments`, { token }), 404, 'PRODUCT_NOT_FOUND');
    expect((await call('GET', '/v1/products?low_stock=true', { token })).body.pagination.total).toBe(0);
    expect(await getProduct(practice, product.id)).toEqual(product);
  });
});

describe('DynamoDB calls', () => {
  it('a stock adjustment is one read and one transaction, crossing or not; create and PATCH one transaction (+ one read)', async () => {
    const caller = { medspaId: practice.medspaId, clientId: practice.clientId, role: 'admin' as const };
    const counted = async (work: () => Promise<unknown>) => {
      ddbCalls.reset();
      await work();
      return Object.fromEntries(ddbCalls.counts);
    };
    let productId = '';
    expect(
      await counted(async () => {
        productId = (
          await createProduct(
            practice.medspaId,
            {
              name: 'Count',
              sku: `CNT-${randomUUID()}`,
              price_cents: 100,
              quantity_on_hand: 3,
              low_stock_threshold: 1,
              active: true,
            },
            new Date(),
          )
        ).id;
      }),
    ).toEqual({ TransactWriteItemsCommand: 1 });
    expect(
      await counted(() => createStockAdjustment(caller, productId, { delta: -1, reason: 'sale' }, new Date())),
    ).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(
      await counted(() => createStockAdjustment(caller, productId, { delta: -1, reason: 'sale' }, new Date())),
    ).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect(
      await counted(() =>
        changeProduct(
          practice.medspaId,
          productId,
          { low_stock_threshold: 0, sku: `CNT-${randomUUID()}` },
          { now: new Date() },
        ),
      ),
    ).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    expect((await getProduct(practice, productId)).quantity_on_hand).toBe(1);
  });
});
