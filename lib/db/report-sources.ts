import type {
  AppointmentRecord,
  PlanSaleRecord,
  PaymentRecord,
  PracticeRecord,
  StockAdjustmentRecord,
} from '../domain/records';
import { appointmentCodec, paymentCodec, planSaleCodec, stockAdjustmentCodec } from './codecs';
import { queryAll, type Decoder } from './query';
import { appointmentTimeIndexPk, paymentTimeIndexPk, planSalesIndexPk, retailSalesIndexPk } from './keys';
import { decodeStreamRecord, type StreamRecord } from './stream';

/**
 * The records reports count (appointments, payments, retail sales, plans sold) and the practice whose zone
 * they are counted in: from the table stream, through the one stream decoder, and read back for a
 * rebuild from the month indexes.
 */

/** What a stream record means to the reports: a source record at a version (null: removed), or a practice change. */
export type ReportSource =
  | {
      kind: 'APPOINTMENT';
      medspaId: string;
      id: string;
      version: number;
      record: AppointmentRecord | null;
      clientId: string;
    }
  | { kind: 'PAYMENT'; medspaId: string; id: string; version: number; record: PaymentRecord | null }
  | {
      kind: 'SALE';
      medspaId: string;
      id: string;
      version: number;
      record: Omit<StockAdjustmentRecord, 'medspa_id'> | null;
    }
  | { kind: 'PLAN_SALE'; medspaId: string; id: string; version: number; record: PlanSaleRecord | null }
  | { kind: 'PRACTICE'; medspaId: string; practice: PracticeRecord | null };

export const REPORT_KINDS = ['APPOINTMENT', 'PAYMENT', 'STOCK_ADJUSTMENT', 'PLAN_SALE', 'PRACTICE'] as const;

/**
 * A stream record as a report source. A removal is the record at its last version + 1, gone.
 * Anything else (claims, audit entries, the aggregates' own items, stock movements that are not
 * sales) is null.
 */
export function decodeReportSource(record: StreamRecord): ReportSource | null {
  const change = decodeStreamRecord(record, REPORT_KINDS);
  if (!change) return null;
  const removed = change.change === 'REMOVE' || !change.after;
  switch (change.kind) {
    case 'APPOINTMENT': {
      const current = (change.after ?? change.before)!;
      return {
        kind: 'APPOINTMENT',
        medspaId: current.medspa_id,
        id: current.id,
        version: current.version + (removed ? 1 : 0),
        record: removed ? null : current,
        clientId: current.client_id,
      };
    }
    case 'PAYMENT': {
      const current = (change.after ?? change.before)!;
      return {
        kind: 'PAYMENT',
        medspaId: current.medspa_id,
        id: current.id,
        version: (current.version ?? 1) + (removed ? 1 : 0),
        record: removed ? null : current,
      };
    }
    case 'STOCK_ADJUSTMENT': {
      const current = (change.after ?? change.before)!;
      if (current.reason !== 'sale') return null;
      const { medspa_id: medspaId, ...adjustment } = current;
      return { kind: 'SALE', medspaId, id: current.id, version: removed ? 2 : 1, record: removed ? null : adjustment };
    }
    case 'PLAN_SALE': {
      // Written once with the sale, as a retail sale's adjustment: version 1, or 2 once removed.
      const current = (change.after ?? change.before)!;
      return {
        kind: 'PLAN_SALE',
        medspaId: current.medspa_id,
        id: current.client_plan_id,
        version: removed ? 2 : 1,
        record: removed ? null : current,
      };
    }
    case 'PRACTICE': {
      const practice = (change.after ?? change.before)!;
      return { kind: 'PRACTICE', medspaId: practice.id, practice: removed ? null : practice };
    }
  }
}

/** Every item of some gsi1 month partitions, a few partitions at a time. */
async function readMonthPartitions<T>(decoder: Decoder<T>, partitions: readonly string[]): Promise<T[]> {
  const items: T[] = [];
  const queue = [...partitions];
  const worker = async () => {
    for (let pk = queue.shift(); pk !== undefined; pk = queue.shift()) {
      items.push(...(await queryAll(decoder, { partition: pk, index: 'gsi1' })));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return items;
}

/**
 * The practice's appointments, payments, retail sales and plans sold whose instants fall in the
 * UTC months given, for a rebuild: Queries on the month indexes (gsi1), never a Scan.
 */
export async function readReportSources(medspaId: string, utcMonths: readonly string[]) {
  const [appointments, payments, sales, plans] = await Promise.all([
    readMonthPartitions(
      appointmentCodec,
      utcMonths.map((month) => appointmentTimeIndexPk(medspaId, month)),
    ),
    readMonthPartitions(
      paymentCodec,
      utcMonths.map((month) => paymentTimeIndexPk(medspaId, month)),
    ),
    readMonthPartitions(
      stockAdjustmentCodec,
      utcMonths.map((month) => retailSalesIndexPk(medspaId, month)),
    ),
    readMonthPartitions(
      planSaleCodec,
      utcMonths.map((month) => planSalesIndexPk(medspaId, month)),
    ),
  ]);
  return { appointments, payments, sales, plans };
}
