import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { openCursor, sealCursor, type CursorScope, type PageRequest } from '../crypto/cursor';
import { isWellFormed } from '../domain/text';
import { ddb, tableName } from './client';
import type { Codec, CollectionCodec } from './codecs';
import { collectionPk, type EntityType } from './keys';
import { keyNamesOf, type TABLE_SHAPE } from './table';

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
export const startKeyNames = (index?: IndexName) => [
  ...new Set([...Object.values(keyNamesOf()), ...Object.values(keyNamesOf(index))]),
];

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

/** The table's indexes a Query may read (lib/db/table.ts). */
export type IndexName = (typeof TABLE_SHAPE.globalIndexes)[number]['name'];

/** A condition on the sort key (the table's `sk`, or the index's): the key condition's second half. */
export type SortCondition =
  | { readonly op: '=' | '<' | '<=' | '>' | '>=' | 'begins_with'; readonly value: string }
  | { readonly op: 'between'; readonly from: string; readonly to: string };

/**
 * THE description of a Query: every Query in lib is one of these, made into its input here (the
 * only module that writes a key condition or sends a QueryCommand).
 */
export interface KeyQuery {
  /** The partition read: a `pk` value, or the index's partition key value with `index`. */
  partition: string;
  index?: IndexName;
  sort?: SortCondition;
  filter?: Filter;
  /** Newest (highest sort key) first. */
  descending?: boolean;
  /** A strongly consistent read (the table only; an index never is). */
  consistent?: boolean;
  /** Only these attributes (a ProjectionExpression): decode them with a projection's codec. */
  projection?: readonly string[];
}

/** A query's input: key condition, filter, projection (placeholders `#pk`/`#sk`, `#p<n>`, `#w<n>`). */
function queryInput(query: KeyQuery, options: { count?: boolean } = {}): QueryCommandInput {
  const keys = keyNamesOf(query.index);
  const names: Record<string, string> = { '#pk': keys.pk };
  const values: Record<string, unknown> = { ':pk': query.partition };
  let expression = '#pk = :pk';
  const sort = query.sort;
  if (sort) {
    names['#sk'] = keys.sk;
    if (sort.op === 'between') {
      values[':from'] = sort.from;
      values[':to'] = sort.to;
      expression += ' AND #sk BETWEEN :from AND :to';
    } else {
      values[':sk'] = sort.value;
      expression += sort.op === 'begins_with' ? ' AND begins_with(#sk, :sk)' : ` AND #sk ${sort.op} :sk`;
    }
  }
  const projection = !options.count && query.projection;
  if (projection) for (const [n, name] of projection.entries()) names[`#p${n}`] = name;
  return withFilter(
    {
      TableName: tableName(),
      ...(query.index ? { IndexName: query.index } : {}),
      KeyConditionExpression: expression,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(projection ? { ProjectionExpression: projection.map((_, n) => `#p${n}`).join(', ') } : {}),
      ...(query.descending ? { ScanIndexForward: false } : {}),
      ...(query.consistent ? { ConsistentRead: true } : {}),
    },
    query.filter,
  );
}

type Item = Record<string, unknown>;

/** What decodes a Query's items: their kind's codec, or a projection's (lib/db/codecs.ts). */
export type Decoder<T> = Pick<Codec<T>, 'fromItem'>;

const decodeAll = <T>(decoder: Decoder<T>, items: readonly Item[]): T[] =>
  items.map((item) => decoder.fromItem(item)).filter((record): record is T => record !== null);

/**
 * ONE Query call: up to `limit` items from `startKey`, and where it stopped. The items are raw: a
 * reader in lib/db that pages by hand (month partitions) decodes them before they leave.
 */
export async function queryStep(
  query: KeyQuery,
  options: { limit?: number; startKey?: Item } = {},
): Promise<{ items: Item[]; lastKey: Item | undefined }> {
  const result = await ddb().send(
    new QueryCommand({
      ...queryInput(query),
      ...(options.limit !== undefined ? { Limit: options.limit } : {}),
      ...(options.startKey ? { ExclusiveStartKey: options.startKey } : {}),
    }),
  );
  return { items: result.Items ?? [], lastKey: result.LastEvaluatedKey };
}

/** How many items a Query matches (after its filter): `Select: COUNT`, following LastEvaluatedKey. */
export async function countItems(query: Omit<KeyQuery, 'projection'>): Promise<number> {
  const input = queryInput(query, { count: true });
  let total = 0;
  let startKey: Item | undefined;
  do {
    const result = await ddb().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: startKey }));
    total += result.Count ?? 0;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return total;
}

/** Every item a Query matches, decoded, following LastEvaluatedKey (for ranges known to be bounded). */
export async function queryAll<T>(decoder: Decoder<T>, query: KeyQuery): Promise<T[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const step = await queryStep(query, { startKey });
    items.push(...step.items);
    startKey = step.lastKey;
  } while (startKey);
  return decodeAll(decoder, items);
}

/** The first `limit` items of a Query (or its first page without one), decoded: ONE call, never a second page. */
export async function queryOnce<T>(decoder: Decoder<T>, query: KeyQuery & { limit?: number }): Promise<T[]> {
  return decodeAll(decoder, (await queryStep(query, { limit: query.limit })).items);
}

/** The first item a Query matches, decoded, or null: paged only until a page holds one (a filter may leave pages empty). */
export async function queryFirst<T>(decoder: Decoder<T>, query: KeyQuery): Promise<T | null> {
  let startKey: Item | undefined;
  do {
    const step = await queryStep(query, { startKey });
    if (step.items.length > 0) return decoder.fromItem(step.items[0]);
    startKey = step.lastKey;
  } while (startKey);
  return null;
}

export interface QueryPageInput extends KeyQuery {
  limit: number;
  cursor?: string;
  /** What the page's cursors are bound to (the practice, the list, its filters). */
  scope: CursorScope;
}

/**
 * `total` of a page (`pageTotal`): a first page with no page after it holds the whole range, so its
 * items are the total and no count is read. Any other page needs the `Select: COUNT` Query over the
 * same key range (bounded by the range, never a Scan): a later page (it has a cursor) counts in
 * parallel with its read, a first page with more after it counts once its read says so.
 */
export async function pageTotal<P extends { items: readonly unknown[]; more: boolean }>(
  later: boolean,
  readPage: () => Promise<P>,
  count: () => Promise<number>,
): Promise<[P, number]> {
  if (later) return Promise.all([readPage(), count()]);
  const page = await readPage();
  return [page, page.more ? await count() : page.items.length];
}

/** One page of a Query plus its `total` (`pageTotal`: no COUNT Query when the page is the whole range). */
export async function queryPage<T>(codec: Decoder<T>, input: QueryPageInput): Promise<Page<T>> {
  const { index, limit } = input;
  const keyNames = startKeyNames(index);
  const startKey = openCursor(input.scope, input.cursor, (key) =>
    isStartKey(key, keyNames, { [keyNamesOf(index).pk]: input.partition }),
  ) as KeyMap | undefined;
  const keyOf = (item: KeyMap) => Object.fromEntries(keyNames.map((name) => [name, item[name]]));

  const readPage = async () => {
    // One item more than the page tells whether another page exists, so the last page says so.
    // With a filter a Query page may come back short: keep reading until the page is full.
    const items: KeyMap[] = [];
    let exclusiveStartKey = startKey;
    do {
      const step = await queryStep(input, { limit: limit + 1 - items.length, startKey: exclusiveStartKey });
      items.push(...step.items);
      exclusiveStartKey = step.lastKey;
    } while (exclusiveStartKey && items.length <= limit);
    const pageItems = items.slice(0, limit);
    const more = items.length > limit;
    return { items: pageItems, more, lastKey: more ? keyOf(pageItems[pageItems.length - 1]) : undefined };
  };

  const [page, total] = await pageTotal(startKey !== undefined, readPage, () => countItems(input));
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
) => queryPage(codec, { partition: collectionPk(medspaId, codec.entity), ...page, filter });
