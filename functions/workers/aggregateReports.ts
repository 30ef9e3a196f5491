import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { applyStreamRecords } from '../../lib/use-cases/report-aggregation';

/**
 * The table stream -> report counters (partial batch failures reported): Lambda hands the batch
 * over again from the first record not applied, and the stream markers written with the counters
 * make every record count once.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const { batchItemFailures } = await applyStreamRecords(event.Records);
  return { batchItemFailures };
};
