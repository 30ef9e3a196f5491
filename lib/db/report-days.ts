import { reportClientsCodec, reportDayCountersCodec, reportTotalsCodec } from './codecs';
import { tableName } from './client';
import { queryAll } from './query';
import { reportDayKey, reportDaySk, reportDaysPk, type ReportDayKind } from './keys';

export type { ReportDayKind };

/**
 * Report day items: a practice-local day's counters in one generation, each a top-level number.
 * Written only by counter ADDs inside a unit's transaction (lib/db/report-aggregates.ts), read by
 * date range.
 */

/** The ADD of `counters` to a day item, for the unit's transaction (the item is created by the first one). */
export function dayUpdate(
  medspaId: string,
  generation: string,
  kind: ReportDayKind,
  date: string,
  counters: Record<string, number>,
) {
  const names: Record<string, string> = {
    '#entity': 'entity',
    '#medspa': 'medspa_id',
    '#generation': 'generation',
    '#date': 'date',
  };
  const values: Record<string, unknown> = {
    ':entity': (kind === 'TOTALS' ? reportTotalsCodec : reportClientsCodec).entity,
    ':medspa': medspaId,
    ':generation': generation,
    ':date': date,
  };
  const adds = Object.entries(counters).map(([name, delta], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = delta;
    return `#c${index} :c${index}`;
  });
  return {
    Update: {
      TableName: tableName(),
      Key: reportDayKey(medspaId, generation, kind, date),
      UpdateExpression: `SET #entity = :entity, #medspa = :medspa, #generation = :generation, #date = :date ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Attributes of a day item that are not counters. */
const DAY_ITEM_FIELDS = new Set(['pk', 'sk', 'entity', 'medspa_id', 'generation', 'date']);

export interface DayItem {
  date: string;
  counters: Record<string, number>;
}

const yearsOf = (from: string, to: string) => {
  const years: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year += 1)
    years.push(String(year).padStart(4, '0'));
  return years;
};

/**
 * A generation's day items of one kind for local dates [from, to]: one Query per calendar year
 * touched (in parallel), each a BETWEEN on the sort key. `counters` narrows what is read
 * (ProjectionExpression) when only some counters matter.
 */
export async function queryReportDays(
  medspaId: string,
  generation: string,
  kind: ReportDayKind,
  range: { from: string; to: string },
  counters?: readonly string[],
): Promise<DayItem[]> {
  const perYear = await Promise.all(
    yearsOf(range.from, range.to).map((year) =>
      queryAll(reportDayCountersCodec, {
        partition: reportDaysPk(medspaId, generation, year),
        sort: {
          op: 'between',
          from: reportDaySk(kind, range.from > `${year}-01-01` ? range.from : `${year}-01-01`),
          to: reportDaySk(kind, range.to < `${year}-12-31` ? range.to : `${year}-12-31`),
        },
        projection: counters ? ['sk', ...counters] : undefined,
      }),
    ),
  );
  return perYear.flat().map((item) => {
    const date = item.sk.slice(kind.length + 1);
    const counted: Record<string, number> = {};
    for (const [name, value] of Object.entries(item))
      if (!DAY_ITEM_FIELDS.has(name) && typeof value === 'number') counted[name] = value;
    return { date, counters: counted };
  });
}
