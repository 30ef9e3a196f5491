import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/aggregateReports';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb, tableName } from '../../lib/db/client';
import { reportDayKey } from '../../lib/db/keys';
import { INITIAL_GENERATION } from '../../lib/db/report-aggregates';
import { queryReportDays } from '../../lib/db/report-days';
import { localDateOf } from '../../lib/domain/time';
import type { StreamRecord } from '../../lib/db/stream';
import { createPayment } from '../../lib/use-cases/payments';
import { makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { streamReader } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();

/**
 * The report aggregator's Lambda answers partial batch failures: a practice whose records cannot
 * be applied fails those records alone, the other practices' records in the batch are counted,
 * and handing the batch over again from the first failed record (as Lambda does) counts the rest
 * without counting anything twice.
 */

const NY = 'America/New_York';
const reader = streamReader();
afterAll(() => reader.close());

const aggregate = (records: StreamRecord[]) =>
  runAsFunction('aggregateReports', () => handler({ Records: records } as DynamoDBStreamEvent));
const sequenceOf = (record: StreamRecord) => record.dynamodb!.SequenceNumber!;

async function collected(practice: TestPractice, date: string): Promise<number | undefined> {
  const [day] = await queryReportDays(practice.medspaId, INITIAL_GENERATION, 'TOTALS', { from: date, to: date });
  return day?.counters.collected_cents;
}

describe('aggregateReports with a practice it cannot apply', () => {
  it("answers that practice's records as batch item failures, counts the others, and counts each once when retried from the first failure", async () => {
    const [a, b] = [await makePractice({ time_zone: NY }), await makePractice({ time_zone: NY })];
    const [clientA, clientB] = [await makeClient(a), await makeClient(b)];
    expect((await aggregate(await reader.readNew())).batchItemFailures).toEqual([]);

    const at = new Date();
    const date = localDateOf(at.toISOString(), NY);
    // A's day item holds a counter that is not a number: no transaction can ADD to it.
    const poisoned = reportDayKey(a.medspaId, INITIAL_GENERATION, 'TOTALS', date);
    await ddb().send(
      new PutCommand({ TableName: tableName(), Item: { ...poisoned, collected_cents: 'not a number' } }),
    );
    const payments = new Map<string, string[]>([
      [a.medspaId, []],
      [b.medspaId, []],
    ]);
    for (const cents of [1000, 2000]) {
      payments
        .get(a.medspaId)!
        .push((await createPayment(a.medspaId, { client_id: clientA.id, amount_cents: cents, method: 'card' }, at)).id);
      payments
        .get(b.medspaId)!
        .push(
          (await createPayment(b.medspaId, { client_id: clientB.id, amount_cents: cents * 10, method: 'card' }, at)).id,
        );
    }
    const batch = await reader.readNew();
    /** The records of a practice's payments, in stream order. */
    const paymentsOf = (practice: TestPractice) =>
      batch.filter(
        (record) =>
          record.eventName === 'INSERT' &&
          payments.get(practice.medspaId)!.includes((record.dynamodb?.Keys?.sk as { S?: string } | undefined)?.S ?? ''),
      );
    expect(paymentsOf(a)).toHaveLength(2);
    expect(paymentsOf(b)).toHaveLength(2);

    const first = await aggregate(batch);
    expect(first.batchItemFailures).toEqual(paymentsOf(a).map((record) => ({ itemIdentifier: sequenceOf(record) })));
    expect(await collected(b, date)).toBe(30_000);
    expect(await collected(a, date)).toBeUndefined();

    // Mended, then handed over again from the first failed record on, B's included.
    await ddb().send(new DeleteCommand({ TableName: tableName(), Key: poisoned }));
    const retried = batch.slice(
      batch.findIndex((record) => sequenceOf(record) === first.batchItemFailures[0].itemIdentifier),
    );
    expect(retried).toContain(paymentsOf(b)[0]);
    expect((await aggregate(retried)).batchItemFailures).toEqual([]);
    expect(await collected(a, date)).toBe(3000);
    expect(await collected(b, date)).toBe(30_000);
  });

  it('the same new records handed to five consumers at once count once (the ledger entries decide; no marker)', async () => {
    const practice = await makePractice({ time_zone: NY });
    const client = await makeClient(practice);
    expect((await aggregate(await reader.readNew())).batchItemFailures).toEqual([]);
    const at = new Date();
    const date = localDateOf(at.toISOString(), NY);
    for (const cents of [700, 300])
      await createPayment(practice.medspaId, { client_id: client.id, amount_cents: cents, method: 'card' }, at);
    const batch = await reader.readNew();
    const results = await Promise.all(Array.from({ length: 5 }, () => aggregate(batch)));
    for (const result of results) expect(result.batchItemFailures).toEqual([]);
    expect(await collected(practice, date)).toBe(1000);
    // Older copies after newer ones, and the batch again: nothing moves.
    await aggregate([...batch].reverse());
    expect(await collected(practice, date)).toBe(1000);
  });
});
