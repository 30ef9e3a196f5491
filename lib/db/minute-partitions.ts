import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ReminderSweepRecord } from '../domain/records';
import { addMinutesTo, minutesBetween } from '../domain/reminders';
import { ddb, tableName } from './client';
import type { Codec } from './codecs';
import { ignoreFailedCondition } from './conditions';
import { readItem } from './key-reads';
import type { Key } from './keys';

/** Time partitions Queried at once by a sweep (a few minutes' worth usually; a backlog in steps). */
const PARALLEL_QUERIES = 8;

/**
 * Every item of these time partitions, one Query each (`read`), a few at a time, in the order
 * given: how the scheduled sweeps (reminders, webhook retries, plan renewals) read what fell due
 * since their checkpoint, never a Scan.
 */
export async function readTimePartitions<T>(partitions: readonly string[], read: (partition: string) => Promise<T[]>) {
  const found: T[] = [];
  for (let i = 0; i < partitions.length; i += PARALLEL_QUERIES) {
    const pages = await Promise.all(partitions.slice(i, i + PARALLEL_QUERIES).map(read));
    found.push(...pages.flat());
  }
  return found;
}

/** Every item of the minute partitions `from` through `through` (UTC minutes, `YYYY-MM-DDTHH:MM`), in minute order. */
export function readMinutePartitions<T>(
  from: string,
  through: string,
  readMinute: (minute: string) => Promise<T[]>,
): Promise<T[]> {
  const minutes = Array.from({ length: minutesBetween(from, through) + 1 }, (_, index) => addMinutesTo(from, index));
  return readTimePartitions(minutes, readMinute);
}

/**
 * A scheduled sweep's checkpoint item (reminders, webhook retries, plan renewals): the last minute
 * or hour it swept through, read at the start of a run and moved forward only at its end, so a
 * slower concurrent sweep never moves it back.
 */
/* @__NO_SIDE_EFFECTS__ */
export function sweepCheckpoint(codec: Codec<ReminderSweepRecord>, key: () => Key) {
  return {
    read: async (): Promise<string | null> => codec.fromItem(await readItem(key()))?.swept_through ?? null,
    advance: async (through: string, now: string): Promise<void> => {
      await ddb()
        .send(
          new PutCommand({
            TableName: tableName(),
            Item: codec.toItem({ swept_through: through, updated_at: now }),
            ConditionExpression: 'attribute_not_exists(pk) OR swept_through < :through',
            ExpressionAttributeValues: { ':through': through },
          }),
        )
        .catch(ignoreFailedCondition);
    },
  };
}
