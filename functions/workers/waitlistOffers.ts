import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamRecord } from '../../lib/db/stream';
import { processWaitlistRecords } from '../../lib/use-cases/waitlist-freed';

/**
 * The table stream -> waitlist offers (docs/decisions/0032): freed time offered to the oldest
 * fitting entry, a new hold's expiry armed for the sweep. Partial batch failures reported; every
 * step is idempotent, so a record handed over again offers nothing twice.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const { batchItemFailures } = await processWaitlistRecords(event.Records as StreamRecord[]);
  return { batchItemFailures };
};
