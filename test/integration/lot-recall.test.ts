import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../lib/db/client';
import { clientCodec } from '../../lib/db/codecs';
import { findLot } from '../../lib/db/lots';
import { entityKey } from '../../lib/db/keys';
import type { LotExposureRecord } from '../../lib/domain/records';
import type { ContractEvent } from '../../lib/events/types';
import { fanOutRecall, listExposures, recallLot } from '../../lib/use-cases/lot-recall';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient, makeLot, makeProduct } from '../fixtures/builders';
import { counted } from '../fixtures/ddb-calls';
import { exposeToLot } from '../fixtures/exposures';
import { eventTap } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

// The recall's events come from the table's real stream through the production consumer.
useTableStream();

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.error.code).toBe(code);
};

/** Every page of a lot's exposures over HTTP, `limit` at a time. */
async function allExposures(token: string, lotId: string, limit: number) {
  const rows: any[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await call('GET', `/v1/lots/${lotId}/exposures?limit=${limit}${query}`, { token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    rows.push(...page.body.data);
    totals.push(page.body.pagination.total);
    cursor = page.body.pagination.next_cursor;
  } while (cursor);
  return { rows, totals };
}

/** A client item exactly as stored (deleted ones anonymised), read straight from the table. */
async function storedClient(medspaId: string, id: string) {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, 'CLIENT', id), ConsistentRead: true }),
  );
  const client = clientCodec.fromItem(Item);
  return client
    ? { id, first_name: client.first_name, last_name: client.last_name, email: client.email, phone: client.phone }
    : { id, first_name: '', last_name: '', email: null, phone: null };
}

const byAppointment = (a: { appointment_id: string }, b: { appointment_id: string }) =>
  a.appointment_id.localeCompare(b.appointment_id);

const recall = (practice: TestPractice, lotId: string, body: Record<string, unknown>, token = practice.adminToken) =>
  call('POST', `/v1/lots/${lotId}/recall`, { token, body });

const ofLot = (events: ContractEvent[], lotId: string) =>
  events.filter((event) => {
    const object = event.data.object as any;
    return object.id === lotId || object.lot?.id === lotId;
  });

let practice: TestPractice;
let product: any;
beforeAll(async () => {
  practice = await makePractice();
  product = await makeProduct(practice, { tracks_lots: true });
});

describe('GET /v1/lots/{id}/exposures', () => {
  it('equals a brute-force join over every exposure item written (several lots, clients treated several times, pages of 3)', async () => {
    const lots = await Promise.all([0, 1, 2].map(() => makeLot(practice, product.id)));
    const clients = await Promise.all([0, 1, 2, 3, 4].map(() => makeClient(practice)));
    // Client i has i + 1 treatments, spread over the lots; lot 2 gets none of client 0's.
    const written = await Promise.all(
      clients.flatMap((client, i) =>
        Array.from({ length: i + 1 }, (_, n) =>
          exposeToLot(lots[(i + n) % 3], practice.medspaId, {
            client_id: client.id,
            treated_at: new Date(Date.UTC(2026, 10, 1 + n, 15)).toISOString(),
            quantity: 10 + i + n,
          }),
        ),
      ),
    );
    // A deleted client shows as stored: anonymised.
    expect((await call('DELETE', `/v1/clients/${clients[4].id}`, { token: practice.adminToken })).status).toBe(200);

    const providerToken = await practice.tokenForRole('provider');
    const stored = new Map(
      await Promise.all(clients.map(async (c) => [c.id, await storedClient(practice.medspaId, c.id)] as const)),
    );
    for (const lot of lots) {
      const expected = written
        .filter((exposure) => exposure.lot_id === lot.id)
        .map((exposure) => ({
          client: stored.get(exposure.client_id),
          appointment_id: exposure.appointment_id,
          treated_at: exposure.treated_at,
          provider_id: exposure.provider_id,
          quantity: exposure.quantity,
        }));
      const { rows, totals } = await allExposures(providerToken, lot.id, 3);
      expect(rows).toEqual(expected.sort(byAppointment));
      expect(new Set(totals)).toEqual(new Set([expected.length]));
    }
    expect(written.length).toBe(15);
    const anonymised = (await allExposures(practice.adminToken, lots[1].id, 100)).rows.find(
      (row) => row.client.id === clients[4].id,
    );
    expect(anonymised.client).toEqual(stored.get(clients[4].id));
    expect(anonymised.client.email).not.toBe(clients[4].email);
  });

  it('is audited (a successful read writes its entry), 404 LOT_NOT_FOUND for an unknown lot, 403 for the front desk', async () => {
    const lot = await makeLot(practice, product.id);
    const read = await call('GET', `/v1/lots/${lot.id}/exposures`, { token: practice.adminToken });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ data: [], pagination: { total: 0, next_cursor: null } });
    const log = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    const entry = log.body.data.find((e: any) => e.request_id === read.headers['x-request-id']);
    expect(entry).toMatchObject({
      operation: 'listLotExposures',
      method: 'GET',
      resource_id: lot.id,
      outcome: 'success',
      status: 200,
      role: 'admin',
    });
    // Other reads stay unaudited.
    const plain = await call('GET', `/v1/lots/${lot.id}`, { token: practice.adminToken });
    const after = await call('GET', '/v1/audit-log?limit=100', { token: practice.adminToken });
    expect(after.body.data.some((e: any) => e.request_id === plain.headers['x-request-id'])).toBe(false);

    expectError(
      await call('GET', `/v1/lots/${randomUUID()}/exposures`, { token: practice.adminToken }),
      404,
      'LOT_NOT_FOUND',
    );
    const frontDesk = await practice.tokenForRole('front_desk');
    expectError(await call('GET', `/v1/lots/${lot.id}/exposures`, { token: frontDesk }), 403, 'FORBIDDEN');
  });

  it('costs a GetItem of the lot, one Query per page (+ COUNT while there are more) and one BatchGetItem of its clients', async () => {
    const lot = await makeLot(practice, product.id);
    const clients = await Promise.all([0, 1, 2].map(() => makeClient(practice)));
    for (const client of clients) await exposeToLot(lot, practice.medspaId, { client_id: client.id });
    const first = await counted(() => listExposures(practice.medspaId, lot.id, { limit: 2 }));
    expect(first.calls).toEqual({ GetItemCommand: 1, QueryCommand: 2, BatchGetItemCommand: 1 });
    const whole = await counted(() => listExposures(practice.medspaId, lot.id, { limit: 10 }));
    expect(whole.calls).toEqual({ GetItemCommand: 1, QueryCommand: 1, BatchGetItemCommand: 1 });
    expect(whole.result.data.length).toBe(3);
  });
});

describe('POST /v1/lots/{id}/recall', () => {
  it('recalls once: 200 with the lot, one lot.recalled, one client.lot_exposure per client with all its exposures; again 409; a sale 409', async () => {
    const tap = eventTap();
    const lot = await makeLot(practice, product.id, {}, 10);
    const clients = await Promise.all([0, 1, 2].map(() => makeClient(practice)));
    const written: LotExposureRecord[] = [];
    for (const [i, client] of clients.entries())
      for (let n = 0; n <= i; n++)
        written.push(
          await exposeToLot(lot, practice.medspaId, {
            client_id: client.id,
            treated_at: new Date(Date.UTC(2026, 9, 1 + n, 15)).toISOString(),
            quantity: 5 + n,
          }),
        );
    const other = await makeLot(practice, product.id);
    await exposeToLot(other, practice.medspaId, { client_id: clients[0].id });
    await tap.drain();

    const answer = await recall(practice, lot.id, { reason: 'Manufacturer notice', reference: 'FSN-1' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: lot.id,
      status: 'recalled',
      recall_reason: 'Manufacturer notice',
      recall_reference: 'FSN-1',
      recalled_at: expect.any(String),
      quantity_on_hand: 10,
    });
    expect((await call('GET', `/v1/lots/${lot.id}`, { token: practice.adminToken })).body.data).toEqual(
      answer.body.data,
    );

    // The lot's record fans out; the notices' records are the client events (a second drain).
    const events = ofLot([...(await tap.drain()), ...(await tap.drain())], lot.id);
    const recalled = events.filter((event) => event.type === 'lot.recalled');
    expect(recalled).toHaveLength(1);
    expect(recalled[0].data).toEqual({ object: answer.body.data });
    const exposures = events.filter((event) => event.type === 'client.lot_exposure');
    expect(exposures.map((event) => (event.data.object as any).client.id).sort()).toEqual(
      clients.map((client) => client.id).sort(),
    );
    for (const event of exposures) {
      const object = event.data.object as any;
      const client = clients.find((c) => c.id === object.client.id);
      expect(object).toEqual({
        client: {
          id: client.id,
          first_name: client.first_name,
          last_name: client.last_name,
          email: client.email,
          phone: client.phone,
        },
        lot: { id: lot.id, product_id: product.id, lot_number: lot.lot_number },
        exposures: written
          .filter((exposure) => exposure.client_id === client.id)
          .map(({ appointment_id, treated_at, quantity }) => ({ appointment_id, treated_at, quantity })),
      });
      expect(event.created_at).toBe(answer.body.data.recalled_at);
    }

    // A replayed stream record (a retried batch) writes no notice twice: nothing new follows.
    await tap.replay(tap.seen);
    expect(ofLot(await tap.drain(), lot.id)).toEqual([]);

    expectError(await recall(practice, lot.id, { reason: 'again' }), 409, 'LOT_RECALLED');
    const sale = await call('POST', `/v1/products/${product.id}/stock-adjustments`, {
      token: practice.adminToken,
      body: { delta: -1, reason: 'sale', lot_id: lot.id },
    });
    expectError(sale, 409, 'LOT_RECALLED');
    expect((await findLot(practice.medspaId, lot.id))!.quantity_on_hand).toBe(10);
    expect(ofLot(await tap.drain(), lot.id)).toEqual([]);
  });

  it('recalls at once (5): one 200, the others 409 LOT_RECALLED, one event set', async () => {
    const tap = eventTap();
    const lot = await makeLot(practice, product.id);
    const clients = await Promise.all([0, 1].map(() => makeClient(practice)));
    await Promise.all(clients.map((client) => exposeToLot(lot, practice.medspaId, { client_id: client.id })));
    await tap.drain();
    const answers = await Promise.all([0, 1, 2, 3, 4].map((n) => recall(practice, lot.id, { reason: `notice ${n}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.body.error.code).toBe('LOT_RECALLED');
    const events = ofLot([...(await tap.drain()), ...(await tap.drain())], lot.id);
    expect(events.map((event) => event.type).sort()).toEqual([
      'client.lot_exposure',
      'client.lot_exposure',
      'lot.recalled',
    ]);
  });

  it('a recall racing sales of the lot: the recall commits (reading again past their moves), each sale is before it or 409', async () => {
    const lot = await makeLot(practice, product.id, {}, 10);
    const [recalled, ...sales] = await Promise.all([
      recall(practice, lot.id, { reason: 'race' }),
      ...[0, 1, 2, 3, 4].map(() =>
        call('POST', `/v1/products/${product.id}/stock-adjustments`, {
          token: practice.adminToken,
          body: { delta: -1, reason: 'sale', lot_id: lot.id },
        }),
      ),
    ]);
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
    for (const sale of sales) expect([201, 409]).toContain(sale.status);
    const sold = sales.filter((sale) => sale.status === 201).length;
    const after = await findLot(practice.medspaId, lot.id);
    expect(after).toMatchObject({ status: 'recalled', quantity_on_hand: 10 - sold });
    // A sale after the recall's commit is refused; one before it shows in the lot the recall answered.
    expect(recalled.body.data.quantity_on_hand).toBe(10 - sold);
  });

  it('loses nobody on a lot that reached more clients than a transaction holds, and writes each notice once', async () => {
    const tap = eventTap();
    const lot = await makeLot(practice, product.id);
    // Exposures of client ids with no client item: still named (by id), as the contract has every exposed person reached.
    const clientIds = Array.from({ length: 101 }, () => randomUUID());
    await Promise.all(clientIds.map((id) => exposeToLot(lot, practice.medspaId, { client_id: id })));
    await tap.drain();
    expect((await recall(practice, lot.id, { reason: 'wide' })).status).toBe(200);
    const events = ofLot([...(await tap.drain()), ...(await tap.drain())], lot.id);
    const exposed = events.filter((event) => event.type === 'client.lot_exposure');
    expect(exposed.map((event) => (event.data.object as any).client.id).sort()).toEqual(clientIds.sort());
    expect(new Set(exposed.map((event) => event.id)).size).toBe(101);

    // The fan-out again (a retry) puts each notice on condition it is new: 101 refused puts, no event.
    const recalledLot = (await findLot(practice.medspaId, lot.id))!;
    const again = await counted(() => fanOutRecall(recalledLot));
    expect(again.calls).toMatchObject({ QueryCommand: 1, BatchGetItemCommand: 2, PutItemCommand: 101 });
    expect(ofLot(await tap.drain(), lot.id)).toEqual([]);
  });

  it('roles: admin and manager recall; a provider and the front desk are 403; an unknown lot is 404', async () => {
    const lot = await makeLot(practice, product.id);
    for (const role of ['provider', 'front_desk'] as const)
      expectError(
        await recall(practice, lot.id, { reason: 'no' }, await practice.tokenForRole(role)),
        403,
        'FORBIDDEN',
      );
    expectError(await recall(practice, randomUUID(), { reason: 'none' }), 404, 'LOT_NOT_FOUND');
    expectError(await recall(practice, lot.id, {}), 400, 'VALIDATION_ERROR');
    const manager = await practice.tokenForRole('manager');
    expect((await recall(practice, lot.id, { reason: 'manager' }, manager)).status).toBe(200);
  });

  it('costs one GetItem and one write, however many were exposed', async () => {
    const lot = await makeLot(practice, product.id);
    const client = await makeClient(practice);
    await exposeToLot(lot, practice.medspaId, { client_id: client.id });
    const recalled = await counted(() => recallLot(practice.medspaId, lot.id, { reason: 'count' }, new Date()));
    expect(recalled.calls).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1 });
  });
});
