/**
 * A metering proxy in front of DynamoDB Local (the way ./ddb-recorder.ts records calls): every
 * call forwarded as is, and billed as DynamoDB would bill it (./cost-model.ts), from the items'
 * real sizes: the whole item of every key read (whatever the projection), a Query re-run without
 * projection, filter or COUNT to size what it read, and the item before and after every write
 * (read straight from DynamoDB Local around the forwarded call). From the same images it counts
 * the stream records a write makes (only a change makes one), the index writes, the storage
 * added, and the items with a TTL that will expire later (each one more stream record then).
 */
import { writeSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/client-dynamodb';
import {
  conditionCheckUnits,
  indexWriteUnits,
  itemReadUnits,
  itemSize,
  itemWriteUnits,
  queryReadUnits,
  STORAGE_OVERHEAD_BYTES,
  transactionalReadUnits,
  type WireItem,
} from './cost-model';
import { bodyOf } from './ddb-recorder';
import { TABLE_SHAPE } from '../../lib/db/table';

/** Each index's keys, and what an entry holds of an item: all of it, or the keys and the attributes it includes. */
const INDEXES = TABLE_SHAPE.globalIndexes.map((index) => {
  const kept =
    'include' in index
      ? new Set<string>([
          TABLE_SHAPE.partitionKey,
          TABLE_SHAPE.sortKey,
          index.partitionKey,
          index.sortKey,
          ...index.include,
        ])
      : undefined;
  return {
    pk: index.partitionKey,
    sk: index.sortKey,
    entryOf: (item: WireItem | undefined): WireItem | undefined =>
      item && kept ? Object.fromEntries(Object.entries(item).filter(([name]) => kept.has(name))) : item,
  };
});
const TTL_ATTRIBUTE = TABLE_SHAPE.ttlAttribute;

export interface MeteredCall {
  operation: string;
  readUnits: number;
  writeUnits: number;
  /** Of writeUnits, those of index entries. */
  indexWriteUnits: number;
  streamRecords: number;
  /** New items with a TTL: each is one more stream record (REMOVE) when it expires. */
  ttlItems: number;
  storageBytes: number;
  started: number;
  ended: number;
}

export interface Metered {
  calls: MeteredCall[];
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  streamRecords: number;
  ttlItems: number;
  storageBytes: number;
  /** Rounds of calls: calls in flight together are one step. */
  steps: number;
  byOperation: Record<string, number>;
}

type Json = any;
type Key = WireItem;
const keyOf = (item: WireItem): Key => ({ pk: item.pk!, sk: item.sk! });

/** Ids masked, so a trace of one operation reads the same for every sample. */
const masked = (text: unknown) => String(text ?? '').replace(/[0-9a-f-]{36}/g, '<id>');

/** BENCH_COST_TRACE=1: each read billed, to stderr around the bench's log capture. */
const traceRead = (call: string, key: Record<string, any>, units: number) => {
  if (process.env.BENCH_COST_TRACE)
    writeSync(2, `  read ${call} ${masked(key.pk?.S)} | ${masked(key.sk?.S).slice(0, 40)}: ${units} RRU\n`);
};

/** The stream of calls grouped into steps by overlap, and summed. */
export function summarize(calls: MeteredCall[]): Metered {
  const sorted = [...calls].sort((a, b) => a.started - b.started);
  let steps = 0;
  let stepEnds = -Infinity;
  for (const call of sorted) {
    if (call.started >= stepEnds) steps += 1;
    stepEnds = Math.max(stepEnds, call.ended);
  }
  const sum = (field: keyof MeteredCall) => calls.reduce((total, call) => total + (call[field] as number), 0);
  const byOperation: Record<string, number> = {};
  for (const call of calls) byOperation[call.operation] = (byOperation[call.operation] ?? 0) + 1;
  return {
    calls: sorted,
    readUnits: sum('readUnits'),
    writeUnits: sum('writeUnits'),
    indexWriteUnits: sum('indexWriteUnits'),
    streamRecords: sum('streamRecords'),
    ttlItems: sum('ttlItems'),
    storageBytes: sum('storageBytes'),
    steps,
    byOperation,
  };
}

export async function startDdbMeter(target: string) {
  const upstream = new URL(target);
  const direct = new DynamoDBClient({
    endpoint: target,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const read = async (table: string, key: Key): Promise<WireItem | undefined> =>
    (await direct.send(new GetItemCommand({ TableName: table, Key: key as Json, ConsistentRead: true }))).Item as
      | WireItem
      | undefined;

  /** A write's bill from the item before and after (`attempted`: a Put's item, for a refused one). */
  const writeCost = (
    before: WireItem | undefined,
    after: WireItem | undefined,
    transactional: boolean,
    attempted = 0,
  ) => {
    const changed = JSON.stringify(sortKeys(before)) !== JSON.stringify(sortKeys(after));
    const beforeBytes = itemSize(before);
    const afterBytes = itemSize(after);
    let index = 0;
    for (const { pk, sk, entryOf } of INDEXES) {
      const entry = (item: WireItem | undefined) =>
        item?.[pk] && item[sk]
          ? { key: `${JSON.stringify(item[pk])}|${JSON.stringify(item[sk])}`, bytes: itemSize(entryOf(item)) }
          : undefined;
      // An entry is written only when what it holds changes.
      const entryChanged = JSON.stringify(sortKeys(entryOf(before))) !== JSON.stringify(sortKeys(entryOf(after)));
      index += indexWriteUnits(entry(before), entry(after), entryChanged);
    }
    const stored = (item: WireItem | undefined, bytes: number) =>
      item && !item[TTL_ATTRIBUTE]
        ? bytes +
          STORAGE_OVERHEAD_BYTES +
          INDEXES.filter(({ pk, sk }) => item[pk] && item[sk]).reduce(
            (sum, { entryOf }) => sum + itemSize(entryOf(item)) + STORAGE_OVERHEAD_BYTES,
            0,
          )
        : 0;
    // BENCH_COST_TRACE=1: each write billed, to stderr around the log capture (ids masked).
    if (process.env.BENCH_COST_TRACE)
      writeSync(
        2,
        `  write ${masked((after ?? before)?.pk?.S)} | ${masked((after ?? before)?.sk?.S).slice(0, 40)}: ${itemWriteUnits(beforeBytes, Math.max(afterBytes, attempted), transactional)} WRU + index ${index}${transactional ? ' (txn)' : ''}\n`,
      );
    return {
      writeUnits: itemWriteUnits(beforeBytes, Math.max(afterBytes, attempted), transactional) + index,
      indexWriteUnits: index,
      streamRecords: changed ? 1 : 0,
      ttlItems: !before && after?.[TTL_ATTRIBUTE] ? 1 : 0,
      storageBytes: stored(after, afterBytes) - stored(before, beforeBytes),
    };
  };

  const zero = { readUnits: 0, writeUnits: 0, indexWriteUnits: 0, streamRecords: 0, ttlItems: 0, storageBytes: 0 };
  type Cost = typeof zero;
  const add = (a: Cost, b: Partial<Cost>): Cost => {
    const sum = { ...a };
    for (const [field, value] of Object.entries(b)) sum[field as keyof Cost] += value ?? 0;
    return sum;
  };

  /** Bills one call: `forward` sends it and answers DynamoDB's answer. */
  async function meter(operation: string, input: Json, forward: () => Promise<Json>): Promise<Cost> {
    switch (operation) {
      case 'GetItem': {
        await forward();
        const readUnits = itemReadUnits(itemSize(await read(input.TableName, input.Key)), !!input.ConsistentRead);
        traceRead('Get', input.Key, readUnits);
        return { ...zero, readUnits };
      }
      case 'BatchGetItem': {
        const answer = await forward();
        let units = 0;
        for (const [table, request] of Object.entries(input.RequestItems as Record<string, Json>)) {
          const unprocessed = new Set(
            ((answer.UnprocessedKeys?.[table]?.Keys ?? []) as Key[]).map((key) => JSON.stringify(sortKeys(key))),
          );
          for (const key of request.Keys as Key[]) {
            if (unprocessed.has(JSON.stringify(sortKeys(key)))) continue;
            const keyUnits = itemReadUnits(itemSize(await read(table, key)), !!request.ConsistentRead);
            traceRead('BatchGet', key, keyUnits);
            units += keyUnits;
          }
        }
        return { ...zero, readUnits: units };
      }
      case 'TransactGetItems': {
        await forward();
        let units = 0;
        for (const { Get } of input.TransactItems as Json[])
          units += transactionalReadUnits(itemSize(await read(Get.TableName, Get.Key)));
        return { ...zero, readUnits: units };
      }
      case 'Query': {
        const answer = await forward();
        const used = (text: string | undefined) => text ?? '';
        const keyCondition = used(input.KeyConditionExpression);
        const pick = (map: Record<string, unknown> | undefined) =>
          map ? Object.fromEntries(Object.entries(map).filter(([name]) => keyCondition.includes(name))) : undefined;
        const names = pick(input.ExpressionAttributeNames);
        const plain: QueryCommandInput = {
          TableName: input.TableName,
          IndexName: input.IndexName,
          KeyConditionExpression: input.KeyConditionExpression,
          ExpressionAttributeNames:
            names && Object.keys(names).length > 0 ? (names as Record<string, string>) : undefined,
          ExpressionAttributeValues: pick(
            input.ExpressionAttributeValues,
          ) as QueryCommandInput['ExpressionAttributeValues'],
          ExclusiveStartKey: input.ExclusiveStartKey,
          ScanIndexForward: input.ScanIndexForward,
          ConsistentRead: input.ConsistentRead,
          Limit: input.Limit,
        };
        const { Items = [] } = await direct.send(new QueryCommand(plain));
        if (Items.length < (answer.ScannedCount ?? 0))
          throw new Error('metering Query: fewer items than DynamoDB read');
        const bytes = Items.reduce((sum, item) => sum + itemSize(item as unknown as WireItem), 0);
        const readUnits = queryReadUnits(bytes, !!input.ConsistentRead);
        traceRead(
          `Query ${input.IndexName ?? ''}`,
          { pk: Object.values(input.ExpressionAttributeValues ?? {})[0] },
          readUnits,
        );
        return { ...zero, readUnits };
      }
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem': {
        const key = operation === 'PutItem' ? keyOf(input.Item) : input.Key;
        const before = await read(input.TableName, key);
        await forward().catch(() => undefined);
        const after = await read(input.TableName, key);
        return { ...zero, ...writeCost(before, after, false, operation === 'PutItem' ? itemSize(input.Item) : 0) };
      }
      case 'BatchWriteItem': {
        const writes = Object.entries(input.RequestItems as Record<string, Json[]>).flatMap(([table, requests]) =>
          requests.map((r) => ({
            table,
            key: r.PutRequest ? keyOf(r.PutRequest.Item) : r.DeleteRequest.Key,
            item: r.PutRequest?.Item,
          })),
        );
        const befores = await Promise.all(writes.map((w) => read(w.table, w.key)));
        await forward();
        let cost = zero;
        for (const [i, w] of writes.entries())
          cost = add(cost, writeCost(befores[i], await read(w.table, w.key), false, itemSize(w.item)));
        return cost;
      }
      case 'TransactWriteItems': {
        const actions = (input.TransactItems as Json[]).map((action) => {
          const [kind, body] = Object.entries(action)[0] as [string, Json];
          return {
            kind,
            table: body.TableName as string,
            key: kind === 'Put' ? keyOf(body.Item) : body.Key,
            item: body.Item,
          };
        });
        const befores = await Promise.all(actions.map((a) => read(a.table, a.key)));
        // A refused transaction is billed as if it ran (its writes are attempted; nothing changes).
        await forward().catch(() => undefined);
        let cost = zero;
        for (const [i, a] of actions.entries()) {
          if (a.kind === 'ConditionCheck') cost = add(cost, { readUnits: conditionCheckUnits(itemSize(befores[i])) });
          else cost = add(cost, writeCost(befores[i], await read(a.table, a.key), true, itemSize(a.item)));
        }
        return cost;
      }
      default:
        await forward();
        return zero;
    }
  }

  let calls: MeteredCall[] = [];
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.split('.').pop() ?? '';
    const started = performance.now();
    let answered: { status: number; headers: Json; body: Buffer } | undefined;
    const forward = () =>
      new Promise<Json>((resolve, reject) => {
        const sent = request(
          { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
          async (answer) => {
            const answerBody = await bodyOf(answer);
            answered = { status: answer.statusCode ?? 500, headers: answer.headers, body: answerBody };
            const parsed = JSON.parse(answerBody.toString('utf8') || '{}');
            if ((answer.statusCode ?? 500) >= 400) reject(Object.assign(new Error(parsed.__type ?? 'error'), parsed));
            else resolve(parsed);
          },
        );
        sent.on('error', reject);
        sent.end(body);
      });
    try {
      const metered = target.startsWith('DynamoDB_20120810')
        ? await meter(operation, JSON.parse(body.toString('utf8') || '{}'), forward)
        : (await forward().catch(() => undefined), undefined);
      if (metered) calls.push({ operation, ...metered, started, ended: performance.now() });
    } catch {
      // The answer (an error DynamoDB gave) is handed back as it came.
    }
    if (!answered) {
      res.destroy();
      return;
    }
    res.writeHead(answered.status, answered.headers);
    res.end(answered.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** What was billed since the last take. */
    take(): Metered {
      const taken = calls;
      calls = [];
      return summarize(taken);
    },
    close: async () => {
      direct.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  return value;
}
