import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { clock } from '../clock';
import { loadSecretKeys } from '../crypto/named-secret';
import { logger } from '../log';
import { keepInFeed } from '../db/event-feed';
import { recordIds, type StreamRecord } from '../db/stream';
import { practiceWebhooks } from '../db/webhooks';
import { wantsEvent } from '../domain/webhooks';
import { eventsFromRecord, recallToFanOut, reminderToArm } from '../events/from-record';
import type { Publish } from '../events/publish';
import type { ContractEvent } from '../events/types';
import { fanOutRecall } from './lot-recall';
import { armReminder } from './reminders';

/**
 * The stream consumer's work, shared by the Lambda worker (functions/workers/streamToBus.ts,
 * publishing to EventBridge) and the local server (infra/local/event-source.ts, publishing in
 * process): a record becomes its contract events, an appointment created or moved arms its
 * reminder, a recalled lot gives each exposed client a notice, and the events are published.
 */
export interface PipelineDeps {
  publish: Publish;
  /** Production: the system clock. Used to arm reminders and as the last-resort event time. */
  now?: () => Date;
  /**
   * Whether an event has anyone to go to. Production (the default): an enabled subscription of its
   * practice that takes its type (`subscribedTo`). Tests of the events' content take them all.
   */
  wanted?: (event: ContractEvent) => Promise<boolean>;
}

/**
 * An event no subscription takes goes nowhere but the event feed (kept before this, whatever the
 * subscriptions: `keepBatchInFeed`): publishing it would cost an EventBridge entry, an
 * SQS message and a fanOut run only to find no subscription. One strongly consistent Query of the
 * practice's subscriptions per batch (the read fanOut makes anyway): made after every record of
 * the batch was written, so a subscription that existed when a change was written always sees its
 * event. A failed read is not kept: the record fails and is retried.
 */
export function subscribedTo(): (event: ContractEvent) => Promise<boolean> {
  const byPractice = new Map<string, ReturnType<typeof practiceWebhooks>>();
  return async (event) => {
    let subscriptions = byPractice.get(event.medspa_id);
    if (!subscriptions) {
      subscriptions = practiceWebhooks(event.medspa_id);
      byPractice.set(event.medspa_id, subscriptions);
      subscriptions.catch(() => byPractice.delete(event.medspa_id));
    }
    return (await subscriptions).some((sub) => sub.enabled && wantsEvent(sub.events, event.type));
  };
}

/**
 * One record, start to end; throws when any step fails, so the record is retried as a whole.
 * `kept`: its events as the batch kept them in the event feed (`keepBatchInFeed`), made once.
 */
export async function handleStreamRecord(
  record: StreamRecord,
  deps: PipelineDeps & Required<Pick<PipelineDeps, 'wanted'>>,
  kept?: () => Promise<ContractEvent[] | undefined>,
): Promise<ContractEvent[]> {
  const now = deps.now?.() ?? clock().now();
  try {
    // An online booking's appointment.created carries a manage token sealed with the cursor
    // secret: read at first use, then kept (lib/crypto/named-secret.ts).
    await loadSecretKeys('cursor');
    const events = (await kept?.()) ?? eventsFromRecord(record, { now });
    const arming = reminderToArm(record);
    // Arming is idempotent (same time, same item) and happens before publishing, so a retried
    // record never leaves an appointment unarmed.
    if (arming) await armReminder(arming, now);
    // A recall's notices (one per exposed client) are written before its lot.recalled is
    // published, and written once: a retried record rewrites none and so emits nothing twice.
    const recalled = recallToFanOut(record);
    if (recalled) await fanOutRecall(recalled);
    const wanted = await Promise.all(events.map(deps.wanted));
    const sent = events.filter((_, index) => wanted[index]);
    if (sent.length > 0) await deps.publish(sent);
    return sent;
  } catch (error) {
    logger.warn('stream record failed', { ...recordIds(record), error: (error as Error).name });
    throw error;
  }
}

/**
 * Every event of the batch, wanted by a subscription or not, kept in its practice's event feed
 * (API reference, section 15; lib/db/event-feed.ts) before any is published: one transaction per
 * practice (and 49 events), not one per record. A record whose events cannot be made is left out
 * here and fails on its own below. When keeping fails, every record fails with it and the batch
 * is retried: kept events are then recognised by id and kept once.
 */
async function keepBatchInFeed(
  records: StreamRecord[],
  deps: PipelineDeps,
): Promise<Map<StreamRecord, ContractEvent[]>> {
  await loadSecretKeys('cursor');
  const made = new Map<StreamRecord, ContractEvent[]>();
  for (const record of records) {
    try {
      made.set(record, eventsFromRecord(record, { now: deps.now?.() ?? clock().now() }));
    } catch {
      // Handled, logged and failed by handleStreamRecord.
    }
  }
  await keepInFeed([...made.values()].flat());
  return made;
}

/**
 * A batch of one shard's records, in order, each on its own: the answer names the records that
 * failed by sequence number (Lambda's partial batch response, `ReportBatchItemFailures`), so the
 * others are not redone. Powertools' BatchProcessor, sequential to keep the shard's order.
 */
export function processStreamRecords(records: StreamRecord[], deps: PipelineDeps): Promise<DynamoDBBatchResponse> {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  const batchDeps = { ...deps, wanted: deps.wanted ?? subscribedTo() };
  const keeping = keepBatchInFeed(records, batchDeps);
  // Each record awaits it (and fails with it); with no record to await it, its failure is no crash.
  keeping.catch(() => undefined);
  return processPartialResponse(
    { Records: records as DynamoDBRecord[] },
    (record: DynamoDBRecord) =>
      handleStreamRecord(record as StreamRecord, batchDeps, async () => (await keeping).get(record as StreamRecord)),
    processor,
    { processInParallel: false, throwOnFullBatchFailure: false },
  );
}
