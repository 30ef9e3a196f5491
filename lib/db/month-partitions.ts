import { openCursor, sealCursor, type CursorScope } from '../crypto/cursor';
import { monthsBetween } from '../domain/time';
import {
  countItems,
  isStartKey,
  pageTotal,
  queryStep,
  startKeyNames,
  type Decoder,
  type Filter,
  type IndexName,
  type KeyQuery,
  type Page,
} from './query';

/**
 * Time-ordered collections on gsi1, one partition per practice and UTC month (appointments by
 * start, payments by creation): the partition stays small and no practice-wide partition runs hot.
 * Their gsi1sk is `${instant}#${id}`, so an instant range is a BETWEEN on the sort key.
 */
export interface MonthPartitionQuery {
  /** The gsi1pk of one UTC month (`YYYY-MM`). */
  partitionOf: (utcMonth: string) => string;
  /** Items whose instant is in [start, end). */
  start: string;
  end: string;
  filter?: Filter;
  limit: number;
  cursor?: string;
  /** What the page's cursors are bound to (the practice, the list, its filters). */
  scope: CursorScope;
  /** Newest first (months and items within them in reverse). */
  descending?: boolean;
  /** An index with gsi1's keys (default gsi1 itself; gsi1n reads its narrow entries). */
  index?: Extract<IndexName, 'gsi1' | 'gsi1n'>;
}

/** The UTC months the instants [start, end) touch (at least start's). */
const utcMonthsBetween = (start: string, end: string): string[] => {
  const first = start.slice(0, 7);
  const last = new Date(Date.parse(end) - 1).toISOString().slice(0, 7);
  return monthsBetween(first, last < first ? first : last);
};

interface RangeCursor {
  month: string;
  key: Record<string, string>;
}

/**
 * Sealed and bound to the list's scope (lib/crypto/cursor.ts); once opened it must still name a
 * month of this range and a key of that month's partition (a range relative to today moves at midnight).
 */
function openRangeCursor(
  scope: CursorScope,
  text: string | undefined,
  months: string[],
  partitionOf: (month: string) => string,
  index: IndexName,
): RangeCursor | undefined {
  return openCursor(scope, text, (position) => {
    const cursor = position as Partial<RangeCursor> | null;
    return (
      months.includes(cursor?.month as string) &&
      isStartKey(cursor!.key, startKeyNames(index), { gsi1pk: partitionOf(cursor!.month!) })
    );
  }) as RangeCursor | undefined;
}

/**
 * One page of the items in [start, end): a page reads month partitions in order and the cursor
 * remembers where it stopped. `total` is the page's own count when it is the whole range (no
 * cursor, nothing after it), else COUNT Queries over the same ranges (`pageTotal`).
 */
export async function queryMonthPartitions<T>(codec: Decoder<T>, query: MonthPartitionQuery): Promise<Page<T>> {
  const ascending = utcMonthsBetween(query.start, query.end);
  const months = query.descending ? [...ascending].reverse() : ascending;
  const index = query.index ?? 'gsi1';
  const rangeOf = (month: string): KeyQuery => ({
    partition: query.partitionOf(month),
    index,
    // Keys are `${instant}#${id}`: everything before `end`.
    sort: { op: 'between', from: query.start, to: `${new Date(Date.parse(query.end) - 1).toISOString()}#\uffff` },
    filter: query.filter,
    descending: query.descending,
  });

  const count = async () =>
    (await Promise.all(months.map((month) => countItems(rangeOf(month))))).reduce((a, b) => a + b, 0);

  const cursor = openRangeCursor(query.scope, query.cursor, months, query.partitionOf, index);
  const page = async () => {
    const items: Record<string, unknown>[] = [];
    let monthIndex = cursor ? months.indexOf(cursor.month) : 0;
    let startKey: Record<string, unknown> | undefined = cursor?.key;
    // Read one item past the page to know whether another page exists.
    while (monthIndex < months.length && items.length <= query.limit) {
      const step = await queryStep(rangeOf(months[monthIndex]), {
        limit: query.limit + 1 - items.length,
        startKey,
      });
      items.push(...step.items);
      startKey = step.lastKey;
      if (!startKey) monthIndex += 1;
    }
    const pageItems = items.slice(0, query.limit);
    const last = pageItems[pageItems.length - 1];
    const nextCursor =
      items.length > query.limit && last
        ? sealCursor(query.scope, {
            month: String(last.gsi1sk).slice(0, 7),
            key: Object.fromEntries(startKeyNames(index).map((name) => [name, String(last[name])])),
          })
        : null;
    return { items: pageItems.map((item) => codec.fromItem(item)!), nextCursor, more: nextCursor !== null };
  };

  const [{ items, nextCursor }, total] = await pageTotal(cursor !== undefined, page, count);
  return { items, nextCursor, total };
}
