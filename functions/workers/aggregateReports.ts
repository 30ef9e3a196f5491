import type { DynamoDBStreamEvent } from 'aws-lambda';
import { applyStreamRecords } from '../../lib/use-cases/report-aggregation';

/**
 * The table stream -> report counters. A failure fails the batch: Lambda retries it (bisecting),
 * and the stream markers written with the counters make every record count once.
 */
export const handler = async (event: DynamoDBStreamEvent) => {
  await applyStreamRecords(event.Records as never);
};
