import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { AppError, type ErrorCode } from '../errors';
import { ddb, tableName } from './client';
import { plainItem } from './conditions';
import { openStartKey, sealStartKey, startKeyNames, type CursorScope, type PageRequest } from './cursor';
import { collectionPk, entityKey, type EntityType, type Key } from './keys';

/** A provider's count of certifications written: a deletion commits only if none came in since it looked (lib/db/resources). */
export const CERTIFICATION_SEQ = 'certification_seq';

/** Attributes that exist for the table's sake, never part of a resource. */
const STORAGE_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'expires_at', 'entity', CERTIFICATION_SEQ];

export function fromItem<T>(item: Record<string, unknown> | undefined): T | null {
  if (!item) return null;
  const copy = { ...item };
  for (const name of STORAGE_ATTRIBUTES) delete copy[name];
  return copy as T;
}

export interface Page<T> {
  items: T[];
  total: number;
  nextCursor: string | null;
  /**
   * The cursor of this page cut after `items[index]` (`nextCursor` at the last item), for an
   * answer that must be shorter than asked (Lambda's payload limit). Kept by a caller only while
   * its items stay one per page item, in order.
   */
  cursorAfter?: (index: number) => string | null;
}

export interface Versioned {
  id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export async function getEntity<T>(medspaId: string, type: EntityType, id: string): Promise<T | null> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, type, id), ConsistentRead: true }),
  );
  return fromItem<T>(Item);
}

const BATCH_GET_LIMIT = 100;
export const itemId = (key: Key) => `${key.pk}|${key.sk}`;

/**
 * How often keys DynamoDB left unprocessed (throttling, or the 16 MB answer limit) are asked for
 * again, with exponential backoff and full jitter as AWS advises: under 5 s of waiting in all, within
 * a route's time limit. Still unprocessed after that, the read fails rather than answer without them.
 */
export const UNPROCESSED_RETRIES = 8;
const unprocessedDelayMs = (retry: number) => Math.random() * Math.min(1000, 25 * 2 ** retry);

/**
 * Reads any keys of the table, strongly consistent, as one BatchGetItem per 100 keys (in
 * parallel), asking again for UnprocessedKeys (with backoff) until none is left: a key is never
 * reported absent because DynamoDB did not get to it. Returns items by `pk|sk`.
 */
export async function batchGetKeys(keys: Key[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keys.map((key) => [itemId(key), { pk: key.pk, sk: key.sk }])).values()];
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) chunks.push(unique.slice(i, i + BATCH_GET_LIMIT));
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let retry = 0; pending.length > 0; retry += 1) {
        if (retry > UNPROCESSED_RETRIES) throw new Error(`BatchGetItem left ${pending.length} key(s) unprocessed after ${UNPROCESSED_RETRIES} retries`);
        if (retry > 0) await new Promise((resolve) => setTimeout(resolve, unprocessedDelayMs(retry)));
        const result = await ddb().send(
          new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
        );
        for (const item of result.Responses?.[tableName()] ?? []) found.set(itemId(item as Key), item);
        pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[]) ?? [];
      }
    }),
  );
  return found;
}

/** Reads several entities of one practice in one round trip. */
export const batchGetEntities = (medspaId: string, refs: { type: EntityType; id: string }[]) =>
  batchGetKeys(refs.map((ref) => entityKey(medspaId, ref.type, ref.id)));

/** Looks an entity up in a batchGetEntities result. */
export const pick = <T>(found: Map<string, Record<string, unknown>>, medspaId: string, type: EntityType, id: string) => {
  const key = entityKey(medspaId, type, id);
  return fromItem<T>(found.get(`${key.pk}|${key.sk}`));
};

export async function putNewEntity<T extends Versioned>(
  medspaId: string,
  type: EntityType,
  entity: T,
  indexKeys: Record<string, string> = {},
): Promise<T> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...entityKey(medspaId, type, entity.id), entity: type, ...indexKeys, ...entity },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return entity;
}

export interface UpdateOptions {
  notFound: ErrorCode;
  expectedVersion?: number;
  now: string;
  /** Attributes to remove (e.g. a cleared optional field). */
  remove?: string[];
  /** Index keys to refresh with the change. */
  indexKeys?: Record<string, string>;
  /** Extra condition on the current item (e.g. `attribute_not_exists(deleted_at)`). */
  condition?: string;
  /**
   * Write only if some field would change (a PATCH of equal values is no change: same version,
   * same updated_at). The condition then also fails on an item that already holds every value.
   */
  onlyIfChanged?: boolean;
}

/**
 * Whether `changes` (undefined values ignored) leave `current` as it is, by DynamoDB's equality:
 * maps compare without regard to key order, lists in order, and an absent attribute is not null.
 */
export function changesNothing(changes: Record<string, unknown>, current: object): boolean {
  const record = current as Record<string, unknown>;
  return Object.entries(changes).every(([name, value]) => value === undefined || (name in record && sameValue(value, record[name])));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const left = Object.entries(a).filter(([, value]) => value !== undefined);
  const right = Object.entries(b).filter(([, value]) => value !== undefined);
  return left.length === right.length && left.every(([name, value]) => name in b && sameValue(value, (b as Record<string, unknown>)[name]));
}

/** The fields a PATCH gives (undefined ones are not written). */
export const definedFields = (changes: object): Record<string, unknown> => Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));

/** The item as a committed versionedUpdate of `changes` at `at` leaves it. */
export const afterUpdate = <T extends { version: number }>(current: T, changes: object, at: string): T => ({ ...current, ...definedFields(changes), version: current.version + 1, updated_at: at });

/** Builds `SET a = :a, ...` plus version and updated_at, conditioned on existence and If-Match. */
export function versionedUpdate(changes: Record<string, unknown>, options: UpdateOptions) {
  const names: Record<string, string> = { '#version': 'version', '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':one': 1, ':now': options.now };
  const sets = ['#version = #version + :one', '#updated_at = :now'];
  const same: string[] = [];
  Object.entries({ ...changes, ...options.indexKeys }).forEach(([name, value], index) => {
    if (value === undefined) return;
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
    same.push(`#f${index} = :f${index}`);
  });
  const removes = (options.remove ?? []).map((name, index) => {
    names[`#r${index}`] = name;
    same.push(`attribute_not_exists(#r${index})`);
    return `#r${index}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (options.expectedVersion !== undefined) {
    values[':expected'] = options.expectedVersion;
    conditions.push('#version = :expected');
  }
  if (options.condition) conditions.push(options.condition);
  if (options.onlyIfChanged && same.length > 0) conditions.push(`NOT (${same.join(' AND ')})`);
  return {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** A failed update condition means "absent" or "stale If-Match": the old item tells which. */
export function conditionFailure(old: Record<string, unknown> | undefined, notFound: ErrorCode, hidden?: (item: Record<string, unknown>) => boolean): AppError {
  if (!old || hidden?.(old)) return new AppError(notFound);
  return new AppError('VERSION_CONFLICT');
}

const isHidden = (item: Record<string, unknown>) => Boolean(item.deleted_at);

/**
 * A PATCH of one item, in one round trip: a versioned update conditioned on existence, If-Match,
 * `condition`, and on some value actually changing. When the condition fails on an item that is
 * there, visible and of the expected version, the values were already those: the item is
 * answered as stored (same version, same updated_at). A PATCH of no fields is a consistent read.
 */
export async function updateItem<T>(key: Key, changes: Record<string, unknown>, options: UpdateOptions): Promise<T> {
  const fields = Object.values(changes).filter((value) => value !== undefined).length + (options.remove?.length ?? 0);
  if (fields === 0) {
    const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    if (!Item || isHidden(Item) || (options.expectedVersion !== undefined && Item.version !== options.expectedVersion)) throw conditionFailure(Item, options.notFound, isHidden);
    return fromItem<T>(Item)!;
  }
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        ...versionedUpdate(changes, { ...options, onlyIfChanged: true }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return fromItem<T>(Attributes)!;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const old = plainItem(error.Item);
    const versionHolds = options.expectedVersion === undefined || old?.version === options.expectedVersion;
    // Only the "nothing changes" clause can have failed (the extra condition is a visibility check).
    if (old && !isHidden(old) && versionHolds && changesNothing(changes, old)) return fromItem<T>(old)!;
    throw conditionFailure(old, options.notFound, isHidden);
  }
}

export const updateEntity = <T>(medspaId: string, type: EntityType, id: string, changes: Record<string, unknown>, options: UpdateOptions): Promise<T> =>
  updateItem<T>(entityKey(medspaId, type, id), changes, options);

export async function deleteEntity(
  medspaId: string,
  type: EntityType,
  id: string,
  options: { notFound: ErrorCode; expectedVersion?: number },
): Promise<void> {
  try {
    await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, type, id),
        ConditionExpression:
          options.expectedVersion === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #version = :expected',
        ...(options.expectedVersion === undefined
          ? {}
          : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':expected': options.expectedVersion } }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw conditionFailure(error.Item as Record<string, unknown> | undefined, options.notFound);
    }
    throw error;
  }
}

export interface QueryPageInput {
  /** Partition to read: a collection, or a gsi partition with `index`. */
  keyCondition: { name: string; value: string; sortBetween?: [string, string]; sortPrefix?: string };
  index?: string;
  limit: number;
  cursor?: string;
  /** What the page's cursors are bound to (the practice, the list, its filters). */
  scope: CursorScope;
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  /** Newest first. */
  descending?: boolean;
}

/**
 * One page of a Query plus its `total`. The page and the count run in parallel; the count is a
 * `Select: COUNT` Query over the same key range (bounded by the range, never a Scan).
 */
export async function queryPage<T>(input: QueryPageInput): Promise<Page<T>> {
  const { keyCondition, index, limit, filter } = input;
  const names: Record<string, string> = { '#pk': keyCondition.name, ...filter?.names };
  const values: Record<string, unknown> = { ':pk': keyCondition.value, ...filter?.values };
  let expression = '#pk = :pk';
  const sortName = index ? `${index}sk` : 'sk';
  if (keyCondition.sortBetween) {
    names['#sk'] = sortName;
    values[':from'] = keyCondition.sortBetween[0];
    values[':to'] = keyCondition.sortBetween[1];
    expression += ' AND #sk BETWEEN :from AND :to';
  } else if (keyCondition.sortPrefix) {
    names['#sk'] = sortName;
    values[':prefix'] = keyCondition.sortPrefix;
    expression += ' AND begins_with(#sk, :prefix)';
  }
  const base = {
    TableName: tableName(),
    IndexName: index,
    KeyConditionExpression: expression,
    FilterExpression: filter?.expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !input.descending,
  };
  const startKey = openStartKey(input.scope, input.cursor, { [keyCondition.name]: keyCondition.value }, startKeyNames(index));

  const keyOf = (item: Record<string, unknown>) => {
    return Object.fromEntries(startKeyNames(index).map((name) => [name, item[name]]));
  };

  const readPage = async () => {
    // One item more than the page tells whether another page exists, so the last page says so.
    // With a filter a Query page may come back short: keep reading until the page is full.
    const items: Record<string, unknown>[] = [];
    let exclusiveStartKey = startKey;
    do {
      const result = await ddb().send(
        new QueryCommand({ ...base, Limit: limit + 1 - items.length, ExclusiveStartKey: exclusiveStartKey }),
      );
      items.push(...(result.Items ?? []));
      exclusiveStartKey = result.LastEvaluatedKey;
    } while (exclusiveStartKey && items.length <= limit);
    const more = items.length > limit;
    const pageItems = items.slice(0, limit);
    return { items: pageItems, lastKey: more ? keyOf(pageItems[pageItems.length - 1]) : undefined };
  };

  const [page, total] = await Promise.all([readPage(), countAll(base)]);
  const nextCursor = sealStartKey(input.scope, page.lastKey);
  return {
    items: page.items.map((item) => fromItem<T>(item)!),
    total,
    nextCursor,
    cursorAfter: (index) => (index >= page.items.length - 1 ? nextCursor : sealStartKey(input.scope, keyOf(page.items[index]))),
  };
}

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'> & { TableName?: string };

/** How many items a Query matches (after its filter): `Select: COUNT`, following LastEvaluatedKey. */
export async function countAll(input: QueryInput): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await ddb().send(new QueryCommand({ TableName: tableName(), ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
}

/** Every item a Query matches, following LastEvaluatedKey (for ranges known to be bounded). */
export async function queryAll(input: QueryInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await ddb().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: startKey }));
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export const listEntities = <T>(medspaId: string, type: EntityType, page: PageRequest, filter?: QueryPageInput['filter']) =>
  queryPage<T>({ keyCondition: { name: 'pk', value: collectionPk(medspaId, type) }, ...page, filter });
