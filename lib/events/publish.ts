import { PutEventsCommand, type PutEventsCommandOutput, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { EVENT_SOURCE, type ContractEvent } from './types';
import { retry } from '../retry';

/**
 * Where contract events go. On AWS: EventBridge (`eventBridgePublisher`); locally: the webhook
 * delivery side, in process. Resolves once every event is accepted; otherwise rejects (with a
 * `PublishError` naming the events not accepted) and the caller retries the stream record.
 */
export type Publish = (events: ContractEvent[]) => Promise<void>;

export class PublishError extends Error {
  override readonly name = 'PublishError';
  constructor(readonly failures: { eventId: string; code: string }[]) {
    super(
      `${failures.length} event(s) not accepted: ${[...new Set(failures.map((failure) => failure.code))].join(', ')}`,
    );
  }
}

/** The one call the publisher needs of an EventBridgeClient (tests pass a stand-in). */
export interface PutEventsClient {
  send(command: PutEventsCommand): Promise<PutEventsCommandOutput>;
}

export interface EventBridgePublisherOptions {
  client: PutEventsClient;
  eventBusName: string;
  /** Tries per entry, the first included, for entries EventBridge reports as failed. */
  maxAttempts?: number;
  /** Wait before retry `attempt` (2, 3, ...). */
  retryDelayMs?: (attempt: number) => number;
}

/** PutEvents takes at most 10 entries and 256 KB per call. */
const MAX_ENTRIES = 10;
const MAX_REQUEST_BYTES = 256 * 1024;

export const toEntry = (event: ContractEvent, eventBusName: string): PutEventsRequestEntry => ({
  Source: EVENT_SOURCE,
  DetailType: event.type,
  Detail: JSON.stringify(event),
  EventBusName: eventBusName,
  Time: new Date(event.created_at),
});

/** EventBridge's entry size: source, detail type, detail and bus name in UTF-8, plus 14 bytes for the time. */
export const entrySize = (entry: PutEventsRequestEntry) =>
  14 +
  [entry.Source, entry.DetailType, entry.Detail, entry.EventBusName].reduce(
    (sum, part) => sum + Buffer.byteLength(part ?? '', 'utf8'),
    0,
  );

/** Consecutive chunks of at most 10 entries and 256 KB, in order. */
export function chunkEntries<T>(items: T[], sizeOf: (item: T) => number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length === MAX_ENTRIES || bytes + size > MAX_REQUEST_BYTES)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Publishes to an EventBridge bus: source `medspa-api`, detail type = the event type, detail =
 * the envelope. Chunks of 10 (and 256 KB), sent in order; entries EventBridge reports as failed
 * (throttling, internal errors) are retried on their own, bounded, then reported in a
 * `PublishError`. A call that throws (after the SDK's own retries) rejects as is.
 */
export function eventBridgePublisher(options: EventBridgePublisherOptions): Publish {
  const maxAttempts = options.maxAttempts ?? 3;
  const retryDelayMs = options.retryDelayMs ?? ((attempt) => 100 * 2 ** (attempt - 2));
  return async (events) => {
    const pending = events.map((event) => ({ event, entry: toEntry(event, options.eventBusName) }));
    const failures: { eventId: string; code: string }[] = [];
    for (const chunk of chunkEntries(pending, (item) => entrySize(item.entry))) {
      let batch = chunk;
      let failed: { item: (typeof batch)[number]; code: string }[] = [];
      await retry(
        async () => {
          const output = await options.client.send(new PutEventsCommand({ Entries: batch.map((item) => item.entry) }));
          // Result entries line up with request entries; an ErrorCode marks one not accepted.
          failed = batch
            .map((item, index) => ({
              item,
              code: output.Entries?.[index]?.ErrorCode ?? (output.Entries?.[index] ? null : 'NoResult'),
            }))
            .filter((result): result is { item: (typeof batch)[number]; code: string } => result.code !== null);
          if (failed.length === 0) return { done: undefined };
          batch = failed.map(({ item }) => item);
          return { retry: 'later' };
        },
        {
          attempts: maxAttempts,
          delayMs: (attempt) => retryDelayMs(attempt + 1),
          // What the last try still had refused is reported, with the codes it gave.
          exhausted: () => void failures.push(...failed.map(({ item, code }) => ({ eventId: item.event.id, code }))),
        },
      );
    }
    if (failures.length > 0) throw new PublishError(failures);
  };
}
