import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ddb } from '../../lib/db/client';
import { call } from '../fixtures/api';
import { makeProduct } from '../fixtures/builders';
import { makeScene, type Scene } from '../fixtures/scheduling';

/**
 * Real DynamoDB cancels a transaction that races another on an item with `TransactionConflict`
 * (DynamoDB Local never does). A client middleware injects exactly that on the first
 * TransactWriteItems of each operation: every transactional operation must succeed on retry.
 */
const injected = { armed: false, count: 0 };

function armConflict() {
  injected.armed = true;
}

beforeAll(() => {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && injected.armed) {
        injected.armed = false;
        injected.count += 1;
        const items = ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
        throw new TransactionCanceledException({
          message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: Array.from({ length: items }, (_, index) =>
            index === 0
              ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
              : { Code: 'None' },
          ),
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'injectTransactionConflict' },
  );
});

afterAll(() => {
  ddb().middlewareStack.remove('injectTransactionConflict');
});

/** A practice-local New York time `days` ahead, as the API takes it (seconds and offset). */
const nyAhead = (days: number, hour: number) =>
  DateTime.now()
    .setZone('America/New_York')
    .plus({ days })
    .set({ hour, minute: 0, second: 0, millisecond: 0 })
    .toISO({ suppressMilliseconds: true })!;

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
});

async function withConflict(method: string, url: string, body?: unknown, headers?: Record<string, string>) {
  const before = injected.count;
  armConflict();
  const response = await call(method, url, { token: scene.practice.adminToken, body, headers });
  expect(injected.count, `${method} ${url} made no transaction`).toBe(before + 1);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body.data;
}

describe('an injected TransactionConflict on the first attempt of every transactional operation', () => {
  it('appointments: create, edit, move, status, cancel, no-show and delete all succeed on retry', async () => {
    const { client, service, provider } = scene;
    const book = (hour: number) =>
      withConflict('POST', '/v1/appointments', {
        client_id: client.id,
        service_id: service.id,
        provider_id: provider.id,
        scheduled_at: nyAhead(21, hour),
      });
    const a = await book(9);
    expect(a.status).toBe('scheduled');
    expect((await withConflict('PATCH', `/v1/appointments/${a.id}`, { notes: 'edited' })).notes).toBe('edited');
    expect(
      (await withConflict('PATCH', `/v1/appointments/${a.id}`, { scheduled_at: nyAhead(21, 10) })).scheduled_at,
    ).toBe(new Date(nyAhead(21, 10)).toISOString());
    expect((await withConflict('PATCH', `/v1/appointments/${a.id}/status`, { status: 'confirmed' })).status).toBe(
      'confirmed',
    );
    expect((await withConflict('POST', `/v1/appointments/${a.id}/cancel`, { reason: 'moved away' })).status).toBe(
      'cancelled',
    );

    const b = await book(12);
    for (const status of ['confirmed', 'checked_in'])
      await withConflict('PATCH', `/v1/appointments/${b.id}/status`, { status });
    expect((await withConflict('POST', `/v1/appointments/${b.id}/no-show`)).status).toBe('no_show');

    const c = await book(14);
    expect(await withConflict('DELETE', `/v1/appointments/${c.id}`)).toEqual({ id: c.id, deleted: true });
  });

  it('clients and consents: create, update, delete, consent', async () => {
    const created = await withConflict('POST', '/v1/clients', {
      first_name: 'Rita',
      last_name: 'Retry',
      email: 'rita@example.com',
    });
    expect((await withConflict('PATCH', `/v1/clients/${created.id}`, { last_name: 'Again' })).last_name).toBe('Again');
    const consent = await withConflict('POST', `/v1/clients/${created.id}/consents`, {
      form_name: 'Botox consent',
      signed_at: new Date().toISOString(),
    });
    expect(consent.form_name).toBe('Botox consent');
    expect(await withConflict('DELETE', `/v1/clients/${created.id}`)).toEqual({ id: created.id, deleted: true });
  });

  it('products, stock and payments: create, update with a new SKU, adjust, pay', async () => {
    const product = await withConflict('POST', '/v1/products', {
      name: 'Retry serum',
      sku: `RETRY-${Date.now()}`,
      price_cents: 1000,
      cost_cents: 400,
    });
    expect(
      (await withConflict('PATCH', `/v1/products/${product.id}`, { sku: `RETRY-NEW-${Date.now()}` })).version,
    ).toBe(2);
    const other = await makeProduct(scene.practice);
    const adjustment = await withConflict('POST', `/v1/products/${other.id}/stock-adjustments`, {
      delta: 5,
      reason: 'received',
    });
    expect(adjustment.quantity_after).toBe(5);
    const payment = await withConflict('POST', '/v1/payments', {
      client_id: scene.client.id,
      amount_cents: 2500,
      method: 'card',
    });
    expect(payment.amount_cents).toBe(2500);
  });

  it('certifications, provider deletion and admin revocation: create, assign, re-list, delete, revoke', async () => {
    const provider = (
      await call('POST', '/v1/providers', {
        token: scene.practice.adminToken,
        body: { first_name: 'Rae', last_name: 'Retry' },
      })
    ).body.data;
    const service = await withConflict('POST', '/v1/services', {
      name: 'Retry facial',
      price_cents: 100,
      duration_minutes: 30,
      provider_ids: [provider.id],
    });
    const other = await withConflict('POST', '/v1/services', {
      name: 'Retry peel',
      price_cents: 100,
      duration_minutes: 30,
    });
    expect(
      (await withConflict('POST', `/v1/services/${other.id}/providers`, { provider_id: provider.id })).provider_ids,
    ).toEqual([provider.id]);
    expect(
      (await withConflict('PATCH', `/v1/services/${service.id}`, { provider_ids: [provider.id, scene.provider.id] }))
        .version,
    ).toBe(2);
    expect(await withConflict('DELETE', `/v1/providers/${provider.id}`)).toEqual({ id: provider.id, deleted: true });
    const admin = (
      await call('POST', '/v1/credentials', {
        token: scene.practice.adminToken,
        body: { name: 'second admin', role: 'admin' },
      })
    ).body.data;
    expect(await withConflict('DELETE', `/v1/credentials/${admin.client_id}`)).toEqual({
      id: admin.client_id,
      deleted: true,
    });
  });
});
