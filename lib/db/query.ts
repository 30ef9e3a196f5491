import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { openCursor, sealCursor, type CursorScope, type PageRequest } from '../crypto/cursor';
import { isWellFormed } from '../domain/text';
import { ddb, tableName } from './client';
import type { Codec, CollectionCodec } from './codecs';
import { collectionPk, type EntityType } from './keys';

// ---- Filters: built from attribute tests, never written by hand outside lib/db --------------

const TEST: unique symbol = Symbol('filter test');

/** A test of one attribute other than equality (a plain value in `where` is `=`). */
export interface Test<V = unknown> {
  readonly [TEST]: true;
  readonly op: '<>' | '>' | 'in' | 'absent' | 'contains';
  readonly value?: unknown;
  /** Only for typing: the type of the attribute this test applies to. */
  readonly of?: V;
}

const test = <V>(op: Test['op'], value?: unknown): Test<V> => ({ [TEST]: true, op, value });
export const not = <V>(value: V) => test<V>('<>', value);
export const above = <V>(value: V) => test<V>('>', value);
export const oneOf = <V>(values: readonly V[]) => test<V>('in', values);
export const absent = () => test<never>('absent');
/** A list (or string) attribute that holds `value`. */
export const contains = <V>(value: V) => test<V[]>('contains', value);

const isTest = (value: unknown): value is Test => typeof value === 'object' && value !== null && TEST in value;

/** Attribute tests of items of type T, all of which must hold; an undefined test is no test. */
export type Match<T> = { [K in keyof T & string]?: T[K] | Test<NonNullable<T[K]>> | undefined };

/** A Query's filter: tests of attributes, each by name and value (its FilterExpression is written by `filterInput`). */
export interface Filter {
  readonly tests: ReadonlyArray<
    readonly [name: string, test: Pick<Test, 'op' | 'value'> | { op: '='; value: unknown }]
  >;
}

/** The filter of `match`'s defined tests (undefined when there are none). */
export function where<T>(match: Match<T>): Filter | undefined {
  const tests = Object.entries(match)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, isTest(value) ? value : { op: '=' as const, value }] as const);
  return tests.length ? { tests } : undefined;
}

/** Every test of every filter given. */
export function allOf(...filters: Array<Filter | undefined>): Filter | undefined {
  const tests = filters.flatMap((filter) => filter?.tests ?? []);
  return tests.length ? { tests } : undefined;
}

/** A filter as Query input (placeholders `#w<n>` / `:w<n>`, apart from the key condition's). */
export function filterInput(
  filter: Filter | undefined,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  if (!filter) return {};
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = filter.tests.map(([name, test], index) => {
    const field = `#w${index}`;
    const value = `:w${index}`;
    names[field] = name;
    if (test.op === 'absent') return `attribute_not_exists(${field})`;
    if (test.op === 'in') {
      const placeholders = (test.value as unknown[]).map(
        (item, n) => ((values[`${value}_${n}`] = item), `${value}_${n}`),
      );
      return `${field} IN (${placeholders.join(', ')})`;
    }
    values[value] = test.value;
    return test.op === 'contains' ? `contains(${field}, ${value})` : `${field} ${test.op} ${value}`;
  });
  return {
    FilterExpression: clauses.join(' AND '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

/** Query input with a filter merged in (its names and values beside the key condition's). */
export function withFilter<I extends Omit<QueryCommandInput, 'TableName'>>(input: I, filter: Filter | undefined): I {
  const extra = filterInput(filter);
  if (!extra.FilterExpression) return input;
  const values = { ...input.ExpressionAttributeValues, ...extra.ExpressionAttributeValues };
  return {
    ...input,
    FilterExpression: extra.FilterExpression,
    ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...extra.ExpressionAttributeNames },
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

// ---- Start keys in cursors ----------------------------------------------------------------

type KeyMap = Record<string, unknown>;

/** DynamoDB's limit on a sort key value (partition keys may take 2048; ours never come near either). */
const MAX_KEY_BYTES = 1024;

/** The attributes of a start key: the table's keys, plus the index's when reading one. */
export const startKeyNames = (index?: string) => (index ? ['pk', 'sk', `${index}pk`, `${index}sk`] : ['pk', 'sk']);

/** Exactly the key attributes `keyNames`, as strings DynamoDB takes as key values, with `expected` values (the partition read). */
export const isStartKey = (
  key: unknown,
  keyNames: readonly string[],
  expected: KeyMap = {},
): key is Record<string, string> =>
  typeof key === 'object' &&
  key !== null &&
  Object.entries(expected).every(([name, value]) => (key as KeyMap)[name] === value) &&
  Object.values(key).every(
    (value) => typeof value === 'string' && isWellFormed(value) && Buffer.byteLength(value) <= MAX_KEY_BYTES,
  ) &&
  [...Object.keys(key)].sort().join() === [...keyNames].sort().join();

/** A Query's LastEvaluatedKey as a cursor of this scope (null on the last page). */
const sealStartKey = (scope: CursorScope, key: KeyMap | undefined): string | null =>
  key ? sealCursor(scope, key) : null;

// ---- Pages, counts, whole ranges ------------------------------------------------------------

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

export interface QueryPageInput {
  /** Partition to read: a collection, or a gsi partition with `index`. */
  keyCondition: { name: string; value: string; sortBetween?: [string, string]; sortPrefix?: string };
  index?: string;
  limit: number;
  cursor?: string;
  /** What the page's cursors are bound to (the practice, the list, its filters). */
  scope: CursorScope;
  filter?: Filter;
  /** Newest first. */
  descending?: boolean;
}

/** What decodes a page's items: their kind's codec. */
export type Decoder<T> = Pick<Codec<T>, 'fromItem'>;

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Select'> & { TableName?: string };

/** How many items a Query matches (after its filter): `Select: COUNT`, following LastEvaluatedKey. */
export async function countAll(input: QueryInput): Promise<number> {
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await ddb().send(
      new QueryCommand({ TableName: tableName(), ...input, Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
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
    const result = await ddb().send(
      new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: startKey }),
    );
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** A partition (and sort key range) as a key condition. */
function keyConditionInput({ keyCondition, index }: Pick<QueryPageInput, 'keyCondition' | 'index'>) {
  const names: Record<string, string> = { '#pk': keyCondition.name };
  const values: Record<string, unknown> = { ':pk': keyCondition.value };
  let expression = '#pk = :pk';
  if (keyCondition.sortBetween || keyCondition.sortPrefix) names['#sk'] = index ? `${index}sk` : 'sk';
  if (keyCondition.sortBetween) {
    [values[':from'], values[':to']] = keyCondition.sortBetween;
    expression += ' AND #sk BETWEEN :from AND :to';
  } else if (keyCondition.sortPrefix) {
    values[':prefix'] = keyCondition.sortPrefix;
    expression += ' AND begins_with(#sk, :prefix)';
  }
  return { KeyConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/**
 * One page of a Query plus its `total`. The page and the count run in parallel; the count is a
 * `Select: COUNT` Query over the same key range (bounded by the range, never a Scan).
 */
export async function queryPage<T>(codec: Decoder<T>, input: QueryPageInput): Promise<Page<T>> {
  const { keyCondition, index, limit } = input;
  const base = {
    TableName: tableName(),
    IndexName: index,
    ...withFilter(keyConditionInput(input), input.filter),
    ScanIndexForward: !input.descending,
  };
  const keyNames = startKeyNames(index);
  const startKey = openCursor(input.scope, input.cursor, (key) =>
    isStartKey(key, keyNames, { [keyCondition.name]: keyCondition.value }),
  ) as KeyMap | undefined;
  const keyOf = (item: KeyMap) => Object.fromEntries(keyNames.map((name) => [name, item[name]]));

  const readPage = async () => {
    // One item more than the page tells whether another page exists, so the last page says so.
    // With a filter a Query page may come back short: keep reading until the page is full.
    const items: KeyMap[] = [];
    let exclusiveStartKey = startKey;
    do {
      const result = await ddb().send(
        new QueryCommand({ ...base, Limit: limit + 1 - items.length, ExclusiveStartKey: exclusiveStartKey }),
      );
      items.push(...(result.Items ?? []));
      exclusiveStartKey = result.LastEvaluatedKey;
    } while (exclusiveStartKey && items.length <= limit);
    const pageItems = items.slice(0, limit);
    return { items: pageItems, lastKey: items.length > limit ? keyOf(pageItems[pageItems.length - 1]) : undefined };
  };

  const [page, total] = await Promise.all([readPage(), countAll(base)]);
  const nextCursor = sealStartKey(input.scope, page.lastKey);
  return {
    items: page.items.map((item) => codec.fromItem(item)!),
    total,
    nextCursor,
    cursorAfter: (at) => (at >= page.items.length - 1 ? nextCursor : sealStartKey(input.scope, keyOf(page.items[at]))),
  };
}

/** A page of a practice's collection of one entity type, in id order; `filter` narrows it. */
export const listEntities = <T, E extends EntityType>(
  codec: CollectionCodec<T, E>,
  medspaId: string,
  page: PageRequest,
  filter?: Filter,
) => queryPage(codec, { keyCondition: { name: 'pk', value: collectionPk(medspaId, codec.entity) }, ...page, filter });
