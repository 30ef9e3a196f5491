import type { DynamoDBStreamEvent } from 'aws-lambda';
import { busPublisherFromEnv } from '../../lib/events/bus';
import { processStreamRecords } from '../../lib/use-cases/stream-to-bus';

/** The table stream -> contract events on the EventBridge bus (partial batch failures reported). */
const publish = busPublisherFromEnv();

export const handler = (event: DynamoDBStreamEvent) => processStreamRecords(event.Records, { publish });
