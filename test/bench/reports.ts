/**
 * Reports bench: seeds 20,000 appointments across the coming year (plus payments, retail sales
 * and plans sold) straight through the data layer's codecs, lets the stream aggregator count them (this
 * table's real stream, read like a consumer), then times the one-year revenue report against the
 * brute-force aggregation over the raw records (Queries on the month indexes), counting the items
 * each reads. `benchReports()` runs on the table the caller set up (test/bench/run.ts);
 * `npm run bench:reports` runs it alone on its own DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DateTime } from 'luxon';
import { ddb } from '../../lib/db/client';
import { appointmentCodec, planSaleCodec, paymentCodec, stockAdjustmentCodec } from '../../lib/db/codecs';
import { readReportSources } from '../../lib/db/report-sources';
import { createPracticeWithAdmin } from '../../lib/use-cases/practice';
import { getRevenueReport } from '../../lib/use-cases/reports';
import { createProvider } from '../../lib/use-cases/resources';
import { createService } from '../../lib/use-cases/services';
import { addDays, todayIn } from '../fixtures/dates';
import {
  appointmentRecord,
  batchWrite,
  planSaleRecord,
  paymentRecord,
  putsOf,
  saleRecord,
} from '../fixtures/report-seed';
import { tableStream } from '../fixtures/report-stream';

const ZONE = 'America/New_York';

/** Items DynamoDB returned to this process (Query items, BatchGetItem responses, GetItem hits). */
const itemsRead = { count: 0 };
let counting = false;
function countItemsRead() {
  if (counting) return;
  counting = true;
  ddb().middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const output = result.output as { Items?: unknown[]; Item?: unknown; Responses?: Record<string, unknown[]> };
      itemsRead.count +=
        (output.Items?.length ?? 0) +
        (output.Item ? 1 : 0) +
        Object.values(output.Responses ?? {}).reduce((n, list) => n + list.length, 0);
      return result;
    },
    { step: 'initialize', name: 'countItemsRead' },
  );
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

export async function benchReports(
  options: { appointments?: number; samples?: number; log?: (line: string) => void } = {},
): Promise<{ line: string; met: boolean }> {
  const log = options.log ?? (() => {});
  const total = options.appointments ?? 20_000;
  const samples = options.samples ?? 15;
  countItemsRead();
  const now = new Date();
  const { practice } = await createPracticeWithAdmin({ name: 'Reports Bench Spa', time_zone: ZONE }, now);
  const mid = practice.id;
  const allDay = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ start: '08:00', end: '20:00' }]]),
  );
  const providers: { id: string }[] = [];
  for (let i = 0; i < 10; i += 1)
    providers.push(
      await createProvider(
        mid,
        { first_name: 'Bench', last_name: `P${i}`, working_hours: allDay, active: true } as never,
        now,
      ),
    );
  const services: { id: string; price_cents: number; duration_minutes: number }[] = [];
  for (let i = 0; i < 8; i += 1)
    services.push(
      await createService(
        mid,
        {
          name: `Service ${i}`,
          category: 'bench',
          price_cents: 5000 + i * 2500,
          duration_minutes: 30 + 15 * (i % 4),
          provider_ids: providers.map((p) => p.id),
          active: true,
        } as never,
        now,
      ),
    );
  const clients = Array.from({ length: 2000 }, () => randomUUID());

  // A year of local dates starting tomorrow; instants anywhere in them.
  const from = addDays(todayIn(ZONE), 1);
  const to = addDays(from, 364);
  const start = DateTime.fromISO(from, { zone: ZONE }).toMillis();
  const end = DateTime.fromISO(addDays(to, 1), { zone: ZONE }).toMillis();
  const instant = () => new Date(start + Math.floor(Math.random() * ((end - start) / 60_000)) * 60_000).toISOString();
  const at = now.toISOString();

  const seedStarted = performance.now();
  const statuses = [
    'completed',
    'completed',
    'completed',
    'completed',
    'completed',
    'cancelled',
    'no_show',
    'scheduled',
    'confirmed',
    'completed',
  ] as const;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
  const appointments = Array.from({ length: total }, () => {
    const service = pick(services);
    return appointmentCodec.toItem(
      appointmentRecord({
        medspaId: mid,
        clientId: pick(clients),
        serviceId: service.id,
        providerId: pick(providers).id,
        scheduledAt: instant(),
        durationMinutes: service.duration_minutes,
        priceCents: service.price_cents,
        status: pick(statuses),
        at,
      }),
    );
  });
  const payments = Array.from({ length: Math.round(total / 5) }, () =>
    paymentCodec.toItem(paymentRecord(mid, pick(clients), 1000 + Math.floor(Math.random() * 40_000), instant())),
  );
  const productId = randomUUID();
  const sales = Array.from({ length: Math.round(total / 20) }, () =>
    stockAdjustmentCodec.toItem(saleRecord(mid, productId, 1 + Math.floor(Math.random() * 3), 4800, instant())),
  );
  const plans = Array.from({ length: Math.round(total / 40) }, () =>
    planSaleCodec.toItem(planSaleRecord(mid, pick(clients), 30_000 + Math.floor(Math.random() * 90) * 1000, instant())),
  );
  // The stream starts from here: read past the setup's records first.
  const stream = tableStream();
  await stream.read();
  await batchWrite(putsOf([...appointments, ...payments, ...sales, ...plans]));
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(
    `seeded ${appointments.length} appointments, ${payments.length} payments, ${sales.length} sales, ${plans.length} plans sold in ${seedSeconds.toFixed(1)} s`,
  );

  const aggregateStarted = performance.now();
  const streamRecords = await stream.drain(100);
  const aggregateSeconds = (performance.now() - aggregateStarted) / 1000;
  stream.close();
  log(`aggregated ${streamRecords} stream records in ${aggregateSeconds.toFixed(1)} s`);

  const query = { from, to, group_by: 'month' as const };
  const ours = () => getRevenueReport(mid, query, now);
  /** The same report computed from the raw records: every month partition of the year on the four indexes, summed in memory. */
  const bruteForce = async () => {
    const months: string[] = [];
    for (
      let m = DateTime.fromMillis(start, { zone: 'UTC' }).startOf('month');
      m.toMillis() < end;
      m = m.plus({ months: 1 })
    )
      months.push(m.toFormat('yyyy-MM'));
    const raw = await readReportSources(mid, months);
    const local = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toISODate()!;
    const inRange = (date: string) => from <= date && date <= to;
    let service = 0;
    let retail = 0;
    let collected = 0;
    let sold = 0;
    const series = new Map<string, number>();
    for (const a of raw.appointments) {
      const date = local(a.scheduled_at);
      if (a.status !== 'completed' || !inRange(date)) continue;
      service += a.price_cents;
      series.set(date.slice(0, 7), (series.get(date.slice(0, 7)) ?? 0) + a.price_cents);
    }
    for (const p of raw.payments) if (inRange(local(p.created_at))) collected += p.amount_cents;
    for (const s of raw.sales) if (inRange(local(s.created_at))) retail += -s.delta * (s.unit_price_cents ?? 0);
    for (const p of raw.plans) if (inRange(local(p.created_at))) sold += p.price_cents;
    return {
      service_cents: service,
      retail_cents: retail,
      plans_cents: sold,
      collected_cents: collected,
      total_cents: service + retail + sold,
      months: series.size,
    };
  };

  const times = { ours: [] as number[], brute: [] as number[] };
  const items = { ours: 0, brute: 0 };
  const figures = { ours: {} as Record<string, number>, brute: {} as Record<string, number> };
  for (let i = 0; i < samples; i += 1) {
    for (const [side, run] of [
      ['ours', ours],
      ['brute', bruteForce],
    ] as const) {
      itemsRead.count = 0;
      const started = performance.now();
      const result = await run();
      times[side].push(performance.now() - started);
      items[side] = itemsRead.count;
      figures[side] = {
        service_cents: result.service_cents,
        retail_cents: result.retail_cents,
        plans_cents: result.plans_cents,
        collected_cents: result.collected_cents,
        total_cents: result.total_cents,
      };
    }
  }
  const equal = JSON.stringify(figures.ours) === JSON.stringify(figures.brute);
  const p50 = { ours: percentile(times.ours, 50), brute: percentile(times.brute, 50) };
  const speedup = p50.brute / p50.ours;
  const met = speedup >= 20 && items.ours <= 400 && equal;
  const line =
    `reports  one-year revenue (${total} appointments, ${payments.length} payments, ${sales.length} sales, ${plans.length} plans sold; aggregated ${streamRecords} stream records in ${aggregateSeconds.toFixed(1)} s): ` +
    `p50 ${p50.ours.toFixed(1)} ms, ${items.ours} items read | brute force p50 ${p50.brute.toFixed(1)} ms, ${items.brute} items read | ` +
    `${speedup.toFixed(1)}x faster, figures ${equal ? 'equal' : 'DIFFER'} -> goal (>= 20x, <= 400 items) ${met ? 'met' : 'NOT met'}`;
  return { line, met };
}

if (process.argv[1] === import.meta.filename) {
  const { benchEnvironment, startBenchTable } = await import('./bench-table');
  benchEnvironment('bench_reports');
  const dynamo = await startBenchTable();
  try {
    const { line, met } = await benchReports({
      appointments: Number(process.env.BENCH_APPOINTMENTS ?? 20_000),
      log: (text) => console.log(text),
    });
    console.log(`\n${line}\n`);
    process.exitCode = met ? 0 : 1;
  } finally {
    await dynamo.stop();
  }
}
