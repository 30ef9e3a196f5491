/**
 * Warm handler CPU per invocation (issue 22): the built bundles of five operations imported into
 * this process, each warmed up, then samples alternating the handler and the same DynamoDB calls
 * made raw with the SDK (./raw-calls.ts), `process.cpuUsage()` (user + system) around each. The
 * process idles while DynamoDB Local (another process) answers, so the CPU is the caller's alone.
 * Import after `benchEnvironment()`.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { FunctionBundle } from '../../infra/bundles';
import { tableName } from '../../lib/db/client';
import { getEntity } from '../../lib/db/batch';
import { providerCodec, serviceCodec } from '../../lib/db/codecs';
import { bucketIdsForPeriods } from '../../lib/domain/claims';
import { workingPeriodsBetween } from '../../lib/domain/slots';
import { addDays, utc } from '../fixtures/dates';
import { percentile } from './cold-start';
import { coldEnvironment, invocationFor, searchTo, type SeededIds } from './functions';
import { rawCreateCalls, rawGetEntity, rawListPage, rawRateLimit, rawSearch, rawSlots } from './raw-calls';
import { countRoundTrips, describeRoundTrips, type RoundTrips } from './round-trips';

/** The operations of the goal, by bundle. */
export const WARM_MODULES = [
  'functions/appointments/createAppointment',
  'functions/appointments/getAppointments',
  'functions/appointments/getAvailableSlots',
  'functions/appointments/searchAvailability',
  'functions/clients/getClient',
];
/** How many times the goal lets a handler's CPU exceed its raw calls'. */
const GOAL_RATIO = 1.5;
/** Create samples book `ids.freeSlot(n)` from here on (cold starts take the first few). */
const FIRST_WARM_SLOT = 1000;

export type Handler = (event: unknown, context: unknown) => Promise<{ statusCode?: number } | undefined>;

interface Side {
  cpuMs: number[];
  wallMs: number[];
  calls: RoundTrips;
}

export interface WarmCpu {
  operation: string;
  ours: Side;
  raw: Side;
  /** Status codes ours answered in the measured samples, with counts. */
  statuses: Map<number, number>;
  expected: number;
}

/** The raw side of each operation: what a request on AWS makes to DynamoDB for it, our code aside. */
async function rawOperations(
  ids: SeededIds,
): Promise<Record<string, { expected: number; raw: (n: number) => Promise<unknown> }>> {
  const mid = ids.medspaId;
  // The request chain's own call on every staff request: the credential's rate-limit bucket. The
  // credential and practice check (lib/auth/access.ts) is cached per container for 60 s, so warm
  // requests make none; audit entries of changes ride in the change's transaction.
  const rateLimit = rawRateLimit(mid, 'warm-raw', WARM_RATE_LIMIT);
  const booked = (await getEntity(serviceCodec, mid, ids.serviceId))!;
  // The search's keys as our use case plans them (untimed): every hour the providers work in range.
  const service = (await getEntity(serviceCodec, mid, ids.searchServiceId))!;
  const plans = await Promise.all(
    (service.provider_ids ?? []).map(async (providerId) => {
      const provider = (await getEntity(providerCodec, mid, providerId))!;
      return {
        providerId,
        hours: bucketIdsForPeriods(
          workingPeriodsBetween(ids.date, searchTo(ids), provider.working_hours ?? {}, 'America/New_York'),
          new Date().toISOString(),
        ),
      };
    }),
  );
  // One practice-local (New York) day, as its time-index sort keys start.
  const day = [utc(ids.date, '00:00'), utc(addDays(ids.date, 1), '00:00')].map((instant) => instant.slice(0, 19));
  const after = (calls: (n: number) => Promise<unknown>) => async (n: number) => {
    await rateLimit();
    return calls(n);
  };
  return {
    // BatchGet (practice, client, service, provider, claim buckets) + TransactWrite (appointment, claim, client check, audit entry).
    createAppointment: {
      expected: 201,
      raw: after((n) =>
        rawCreateCalls({
          medspaId: mid,
          clientId: ids.clientId,
          service: booked,
          providerId: ids.providerId,
          start: ids.freeSlot(n),
          id: `warm-raw-${n}`,
          caller: ids.credential.client_id,
        }),
      ),
    },
    // One Query of the day's page and one BatchGet of its clients, services and providers (the goal's
    // floor), plus the COUNT Query the answer's pagination.total needs. Not the practice read ours
    // makes for the zone: a raw caller could keep the zone, as it keeps the access check.
    getAppointments: {
      expected: 200,
      raw: after(() => rawListPage(mid, day[0]!, day[1]!, { limit: 50, count: true })),
    },
    getAvailableSlots: { expected: 200, raw: after(() => rawSlots(mid, ids.providerId, ids.date)) },
    searchAvailability: { expected: 200, raw: after(() => rawSearch(mid, ids.searchServiceId, plans)) },
    getClient: { expected: 200, raw: after(() => rawGetEntity(mid, 'CLIENT', ids.clientId)) },
  };
}

/** Runs `work` with stdout written to /dev/null (a synchronous write, as to Lambda's log pipe), counting the writes. */
async function withStdoutDiscarded<T>(work: () => Promise<T>): Promise<{ value: T; logLines: number }> {
  const write = process.stdout.write;
  const sink = openSync('/dev/null', 'w');
  let lines = 0;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    lines += 1;
    if (typeof chunk === 'string') writeSync(sink, chunk);
    else writeSync(sink, chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    return { value: await work(), logLines: lines };
  } finally {
    process.stdout.write = write;
    closeSync(sink);
  }
}

async function timed(side: Side, run: () => Promise<unknown>): Promise<unknown> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await run();
  const wall = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  side.cpuMs.push((user + system) / 1000);
  side.wallMs.push(wall);
  return result;
}

/** A deployed function's environment against this DynamoDB Local, the rate limit on but too high to refuse the bench. */
const WARM_RATE_LIMIT = { rps: 100_000, burst: 200_000 };
export const warmEnvironment = (endpoint: string): NodeJS.ProcessEnv => ({
  ...coldEnvironment(endpoint, tableName()),
  RATE_LIMIT_RPS: String(WARM_RATE_LIMIT.rps),
  RATE_LIMIT_BURST: String(WARM_RATE_LIMIT.burst),
});

/**
 * Runs `work` with `env` set, as a bundle reads it at first use (its logger at import), and stdout
 * discarded: the handlers' request lines cost what they cost without reaching the terminal.
 */
export async function asDeployed<T>(
  env: NodeJS.ProcessEnv,
  work: () => Promise<T>,
): Promise<{ value: T; logLines: number }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return await withStdoutDiscarded(work);
  } finally {
    for (const name of Object.keys(env)) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

/** A bundle's handler, imported into this process (Node caches the module: one instance, as in one container). */
export const importHandler = async (bundle: FunctionBundle) =>
  ((await import(pathToFileURL(bundle.file).href)) as { handler: Handler }).handler;

/** The n-th request of the bench for a bundle's operation (./functions.ts `invocationFor`), as API Gateway and Lambda pass it. */
export function invocation(bundle: FunctionBundle, ids: SeededIds, n: number): [event: unknown, context: unknown] {
  const { event, context } = invocationFor(ids, n)(bundle);
  return [event, { ...context, getRemainingTimeInMillis: () => 10_000 }];
}

/**
 * Warms each handler (default: the goal's five) with `warmup` invocations, then takes `samples`
 * pairs, ours then raw, one operation at a time (as one container serves one function). The raw
 * n-th call reads what ours n-th read (a create's hour buckets): the same items.
 */
export async function measureWarmCpu(options: {
  bundles: FunctionBundle[];
  modules?: string[];
  ids: SeededIds;
  endpoint: string;
  samples: number;
  warmup?: number;
}) {
  const warmup = options.warmup ?? 20;
  const operations = await rawOperations(options.ids);
  let invocations = 0;
  const { value: results, logLines } = await asDeployed(warmEnvironment(options.endpoint), async () => {
    const results: WarmCpu[] = [];
    for (const module of options.modules ?? WARM_MODULES) {
      const bundle = options.bundles.find((b) => b.name === module);
      if (!bundle) throw new Error(`${module} was not built`);
      const operation = module.slice(module.lastIndexOf('/') + 1);
      const { expected, raw } = operations[operation]!;
      const handler = await importHandler(bundle);
      // Each request is made before its timing starts (creates book `ids.freeSlot(n)`): only the handler is measured.
      let next = FIRST_WARM_SLOT;
      const request = () => ({ n: next, args: invocation(bundle, options.ids, next++) });
      const ours = async (args: ReturnType<typeof invocation>) => {
        invocations += 1;
        return (await handler(...args))?.statusCode ?? 0;
      };
      for (let i = 0; i < warmup; i += 1) {
        const { n, args } = request();
        await ours(args);
        await raw(n);
      }
      const counted = request();
      const oursSide: Side = { cpuMs: [], wallMs: [], calls: await countRoundTrips(() => ours(counted.args)) };
      const rawSide: Side = { cpuMs: [], wallMs: [], calls: await countRoundTrips(() => raw(counted.n)) };
      const statuses = new Map<number, number>();
      for (let i = 0; i < options.samples; i += 1) {
        const { n, args } = request();
        const status = (await timed(oursSide, () => ours(args))) as number;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await timed(rawSide, () => raw(n));
      }
      results.push({ operation, ours: oursSide, raw: rawSide, statuses, expected });
    }
    return results;
  });
  return { results, logLines, invocations };
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const ms = (value: number) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`).padStart(8);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratioOf = (result: WarmCpu) => percentile(result.ours.cpuMs, 50) / percentile(result.raw.cpuMs, 50);

export function warmCpuLines(
  { results, logLines, invocations }: Awaited<ReturnType<typeof measureWarmCpu>>,
  samples: number,
): string[] {
  return [
    `warm cpu  built bundles in this process, ${samples} samples each (ours and raw alternating), user+system CPU per invocation; ${(logLines / invocations).toFixed(2)} log lines per invocation (INFO, as deployed)`,
    ...results.map((r) => {
      const statuses = [...r.statuses]
        .map(([status, n]) => (n === samples ? String(status) : `${status} x${n}`))
        .join(', ');
      return (
        `warm cpu  ${r.operation.padEnd(18)} ours p50 ${ms(percentile(r.ours.cpuMs, 50))} (mean ${ms(mean(r.ours.cpuMs))}) wall p50 ${ms(percentile(r.ours.wallMs, 50))}` +
        ` | raw p50 ${ms(percentile(r.raw.cpuMs, 50))} (mean ${ms(mean(r.raw.cpuMs))}) wall p50 ${ms(percentile(r.raw.wallMs, 50))}` +
        ` | ratio p50 ${ratioOf(r).toFixed(2)}x | DynamoDB calls ours ${describeRoundTrips(r.ours.calls)} ${kb(r.ours.calls.bytes)}, raw ${describeRoundTrips(r.raw.calls)} ${kb(r.raw.calls.bytes)}` +
        ` | ${statuses}${r.statuses.size === 1 && r.statuses.has(r.expected) ? '' : ` (expected ${r.expected})`}`
      );
    }),
  ];
}

export const warmCpuGoalLine = ({ results }: Awaited<ReturnType<typeof measureWarmCpu>>) =>
  `warm CPU goal: every operation's handler CPU p50 <= ${GOAL_RATIO}x the raw calls' CPU -> ${results.every((r) => ratioOf(r) <= GOAL_RATIO && r.statuses.size === 1 && r.statuses.has(r.expected)) ? 'met' : 'NOT met'}`;
