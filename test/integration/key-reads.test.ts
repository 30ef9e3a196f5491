import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAsFunction } from '../../lib/aws/local-runtime';
import { ddb, ddbCalls, tableName } from '../../lib/db/client';
import { readItem, readItems } from '../../lib/db/key-reads';
import { collectionPk, type Key } from '../../lib/db/keys';
import { consistencyOf, counted } from '../fixtures/ddb-calls';

/**
 * Reads by key asked for in the same tick share one round trip (lib/db/key-reads.ts): what a cold
 * GET's credential check and its own read rely on to go out as one call.
 */
// A partition the functions below (getClient) may read: a practice's clients.
const pk = collectionPk(randomUUID(), 'CLIENT');
const keyOf = (n: number): Key => ({ pk, sk: String(n) });

beforeAll(async () => {
  await Promise.all(
    [1, 2, 3].map((n) => ddb().send(new PutCommand({ TableName: tableName(), Item: { ...keyOf(n), n } }))),
  );
});

describe('reads by key', () => {
  it('reads asked for together are one BatchGetItem, duplicates asked once, each caller answered its own', async () => {
    ddbCalls.trace = [];
    const { result, calls } = await counted(() =>
      Promise.all([readItem(keyOf(1)), readItems([keyOf(1), keyOf(2), keyOf(9)]), readItem(keyOf(3))]),
    );
    const trace = ddbCalls.trace;
    ddbCalls.trace = undefined;
    expect(calls).toEqual({ BatchGetItemCommand: 1 });
    // DynamoDB refuses a batch naming a key twice: the repeated key went once.
    expect(trace).toEqual(['BatchGetItemCommand sent (4 keys)', 'BatchGetItemCommand answered']);
    const [one, many, three] = result;
    expect(one?.n).toBe(1);
    expect([...many.values()].map((item) => item.n)).toEqual([1, 2]);
    expect(many.has(`${pk}|9`)).toBe(false);
    expect(three?.n).toBe(3);
  });

  it('a lone key is one GetItem; an absent one answers undefined', async () => {
    expect(await counted(() => readItem(keyOf(2)))).toMatchObject({ result: { n: 2 }, calls: { GetItemCommand: 1 } });
    expect(await counted(() => readItem(keyOf(9)))).toMatchObject({ result: undefined, calls: { GetItemCommand: 1 } });
    expect((await counted(() => readItems([keyOf(3), keyOf(3)]))).calls).toEqual({ GetItemCommand: 1 });
  });

  it('reads asked for one after another are calls of their own', async () => {
    const { calls } = await counted(async () => {
      await readItem(keyOf(1));
      await readItem(keyOf(2));
    });
    expect(calls).toEqual({ GetItemCommand: 2 });
  });

  it('reads merge within one invocation only: two requests served side by side by one local process read apart, as two Lambda containers would', async () => {
    const { result, calls } = await counted(() =>
      Promise.all([
        runAsFunction('getClient', () => Promise.all([readItem(keyOf(1)), readItem(keyOf(2))])),
        runAsFunction('getClient', () => readItem(keyOf(3))),
      ]),
    );
    expect(calls).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 1 });
    expect(result.flat().map((item) => item?.n)).toEqual([1, 2, 3]);
  });

  it('an eventually consistent read asks so; one sharing its tick with a strong reader is read strongly, in the same round trip', async () => {
    expect(await consistencyOf(() => readItems([keyOf(1), keyOf(2)], { consistent: false }))).toEqual([
      'BatchGetItemCommand eventual',
    ]);
    expect(await consistencyOf(() => readItems([keyOf(1)], { consistent: false }))).toEqual([
      'GetItemCommand eventual',
    ]);
    let shared: [Map<string, Record<string, unknown>>, Record<string, unknown> | undefined] | undefined;
    expect(
      await consistencyOf(async () => {
        shared = await Promise.all([readItems([keyOf(1), keyOf(2)], { consistent: false }), readItem(keyOf(3))]);
      }),
    ).toEqual(['BatchGetItemCommand strong']);
    expect([...shared![0].values()].map((item) => item.n)).toEqual([1, 2]);
    expect(shared![1]?.n).toBe(3);
  });

  it('a failed read fails every caller that shared it', async () => {
    const badKey = { pk, sk: '' } as Key;
    const shared = await Promise.allSettled([readItem(keyOf(1)), readItems([badKey])]);
    expect(shared.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(await readItem(keyOf(1))).toMatchObject({ n: 1 });
  });
});
