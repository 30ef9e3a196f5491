import type { DynamoDBBatchResponse } from 'aws-lambda';
import { decodeReportSource } from '../db/report-sources';
import { recordIds, type StreamRecord } from '../db/stream';
import { logger } from '../log';
import { applySources, newStats, practiceChanged, type AggregationStats, type CountedSource } from './report-units';

/**
 * Report aggregates kept by the table stream. The counting rules are pure
 * (lib/domain/report-aggregates.ts), ./report-units.ts counts sources into the table, and
 * ./report-rebuild.ts recounts a practice from its records.
 *
 * `applyStreamRecords(records)` is called by the stream consumer with each batch (locally and on
 * AWS): the records are grouped per practice, in order, and each practice's are applied in units
 * of up to 40, one BatchGetItem and one TransactWriteItems each. A lost race reads again; a record
 * already applied (its version already counted) changes nothing.
 */

export type { AggregationStats } from './report-units';

/** Lambda's partial batch response, with what the batch did. */
export interface StreamAggregation extends DynamoDBBatchResponse {
  stats: AggregationStats;
}

/** A source and the stream record it came from: its sequence number names it in the batch response. */
type StreamSource = CountedSource & { sequenceNumber: string };

const sequenceOf = (record: StreamRecord) => record.dynamodb?.SequenceNumber ?? '';

/**
 * The stream consumer's entry point: applies a batch of the table's stream records (wire format,
 * as Lambda or GetRecords deliver them) to the report counters, exactly once per record whatever
 * the retries, replays or duplicates. A practice that cannot finish does not hold up the others:
 * its records from the first one not applied are answered as `batchItemFailures` (Lambda's
 * `ReportBatchItemFailures`, as the other stream worker does), so the stream hands them over again
 * from there; the records after it that were applied are found applied then.
 */
export async function applyStreamRecords(records: readonly StreamRecord[]): Promise<StreamAggregation> {
  const stats = newStats(records.length);
  const failed = new Set<string>();
  const byPractice = new Map<string, StreamSource[]>();
  for (const record of records) {
    let source: ReturnType<typeof decodeReportSource>;
    try {
      source = decodeReportSource(record);
    } catch (error) {
      logger.warn('report source not decoded', { ...recordIds(record), error: (error as Error).name });
      failed.add(sequenceOf(record));
      continue;
    }
    if (!source) {
      stats.ignored += 1;
      continue;
    }
    if (source.kind === 'PRACTICE') {
      practiceChanged(source.medspaId, source.practice?.time_zone);
      stats.ignored += 1;
      continue;
    }
    const list = byPractice.get(source.medspaId) ?? [];
    list.push({ ...source, sequenceNumber: sequenceOf(record) });
    byPractice.set(source.medspaId, list);
  }

  await Promise.all(
    [...byPractice].map(async ([medspaId, sources]) => {
      const unapplied = await applySources(medspaId, sources, { kind: 'stream' }, stats);
      if (!unapplied) return;
      logger.warn('report sources not applied', {
        medspaId,
        records: unapplied.sources.length,
        error: (unapplied.error as Error).name,
      });
      for (const source of unapplied.sources) failed.add(source.sequenceNumber);
    }),
  );
  // In stream order: Lambda starts again from the first.
  const batchItemFailures = records
    .filter((record) => failed.has(sequenceOf(record)))
    .map((record) => ({ itemIdentifier: sequenceOf(record) }));
  return { stats, batchItemFailures };
}
