/**
 * The workload of one practice (issue 36) and its monthly bill. Assumptions (docs/cost.md): a
 * 30-day month, every day open 10 hours (the staff poll and everything else happens in those
 * hours); the practice has no webhook subscription (`create+webhook` shows what one adds).
 */
import {
  DAYS_PER_MONTH,
  gbSeconds,
  LOG_COMPRESSION,
  opCost,
  PLATFORM_LOG_BYTES_PER_INVOCATION,
  SECONDS_PER_MONTH,
  SQS_IDLE_RECEIVES_PER_MAPPING_MONTH,
  streamInvocationsPerSecond,
  xrayTracesPerSecond,
  type CostContext,
  type OpUsage,
} from './cost-model';
import type { StackFacts } from './cost-stack';
import { PRICES } from './prices';

export const OPEN_HOURS_A_DAY = 10;
const STAFF = 10;

/** Operations of one practice a day, by the bench's operation names. */
export const WORKLOAD: Record<string, number> = {
  // 10 staff polling the appointment list of the day once a minute while open, each with the
  // ETag of their last read. The day changes about 160 times (40 bookings, each checked in,
  // started and completed; cancels), so about a quarter of the polls find it changed (full
  // answer) and the rest get 304 with no body.
  'list 1 day': (STAFF * 60 * OPEN_HOURS_A_DAY) / 4,
  'list 1 day (unchanged)': (STAFF * 60 * OPEN_HOURS_A_DAY * 3) / 4,
  // 2,000 public availability searches; a visitor makes 4 (so a new IP's bucket every 4th).
  'search (public)': 2000,
  // 40 appointments a day: half booked online, half by staff (half of those with an
  // Idempotency-Key, as the typed client sends; half without), each after a staff search.
  'public booking': 20,
  create: 10,
  'create+key': 10,
  'search (staff)': 20,
  // One in ten cancelled; the client opened once per appointment.
  cancel: 4,
  'get client': 40,
  // Each staff member's token lasts an hour: one exchange an hour while open.
  token: STAFF * OPEN_HOURS_A_DAY,
};

export function describeWorkload(workload: Record<string, number>): string[] {
  return [
    `workload of a practice a day (30-day month, open ${OPEN_HOURS_A_DAY} h a day, no webhook subscription): ${Object.entries(
      workload,
    )
      .map(([op, n]) => `${op} ${n.toLocaleString('en-US')}`)
      .join(
        ', ',
      )}; the scheduled sweeps (reminders, webhook retries, waitlist every minute; plans every hour) for the whole stage`,
  ];
}

const ACTIVE_SECONDS = DAYS_PER_MONTH * OPEN_HOURS_A_DAY * 3600;
const GB = 1024 ** 3;
/** KMS calls DynamoDB makes with the table's key: about one Decrypt per role using the table every 5 minutes while active. */
const TABLE_KEY_DECRYPTS_PER_ROLE_HOUR = 12;
/** A DynamoDB partition (and stream shard) takes up to 1,000 WRU a second. */
const WRU_PER_SHARD_SECOND = 1000;

/** A scheduled worker's run, measured, and how often it runs. */
export interface ScheduledRun {
  line: string;
  fn: string;
  run: OpUsage;
  everyMinutes: number;
}

export interface Bill {
  practices: number;
  total: number;
  lines: Record<string, number>;
  context: CostContext;
}

export function monthlyBill(input: {
  practices: number;
  usages: Record<string, OpUsage>;
  fnOf: Record<string, string>;
  /** The scheduled workers' steady-state runs, for the whole stage whatever its load. */
  sweeps: readonly ScheduledRun[];
  stack: StackFacts;
  workload?: Record<string, number>;
}): Bill {
  const { practices, usages, fnOf, sweeps, stack } = input;
  const workload = input.workload ?? WORKLOAD;
  const monthly = Object.fromEntries(
    Object.entries(workload).map(([op, perDay]) => [op, perDay * DAYS_PER_MONTH * practices]),
  );
  const sum = (field: keyof OpUsage) =>
    Object.entries(monthly).reduce((total, [op, n]) => total + n * (usages[op]?.[field] ?? 0), 0);

  // Rates while open: stream batches (and the sweep's, around the clock), write units, invocations per function.
  const batchRate =
    sum('streamBatches') / ACTIVE_SECONDS +
    sweeps.reduce((rate, { run, everyMinutes }) => rate + run.streamBatches / (60 * everyMinutes), 0);
  const shards = Math.max(1, Math.ceil(sum('writeUnits') / ACTIVE_SECONDS / WRU_PER_SHARD_SECOND));
  const perBatch = batchRate > 0 ? streamInvocationsPerSecond(batchRate, shards) / batchRate : 1;
  const sampled = (rate: number) => (rate > 0 ? xrayTracesPerSecond(rate) / rate : 1);
  const apiRate = new Map<string, number>();
  for (const [op, n] of Object.entries(monthly)) {
    const fn = fnOf[op] ?? op;
    apiRate.set(fn, (apiRate.get(fn) ?? 0) + n / ACTIVE_SECONDS);
  }
  const queueRate = sum('queueMessages') / ACTIVE_SECONDS / 2;
  const context: CostContext = {
    streamInvocationsPerBatch: perBatch,
    // `streamBatches` already counts the workers a batch invokes (their filters applied, test/bench/cost.ts).
    streamWorkers: 1,
    // Per function as synthesized: an actively traced one samples (first each second, 5% of the rest), one passing through records none.
    traced: (fn) =>
      fn === 'stream'
        ? stack.workersTraced
          ? sampled(batchRate * perBatch)
          : 0
        : fn === 'queue'
          ? stack.workersTraced
            ? sampled(queueRate)
            : 0
          : stack.tracedFunctions.includes(fn)
            ? sampled(apiRate.get(fn) ?? 0)
            : 0,
    edge: stack.edge,
    edgeFunctions: stack.cloudFrontFunctions,
    accessLogBytes: ACCESS_LOG_BYTES,
    platformLogBytes: stack.platformLogLines ? PLATFORM_LOG_BYTES_PER_INVOCATION : 0,
  };

  const lines: Record<string, number> = {};
  const addLine = (name: string, usd: number) => {
    lines[name] = (lines[name] ?? 0) + usd;
  };
  const LINE_NAMES: Record<string, string> = {
    dynamodb: 'DynamoDB requests',
    lambda: 'Lambda (requests + GB-s)',
    api: 'API Gateway HTTP API',
    edge: 'CloudFront + WAF requests (+ CloudFront Functions, if any)',
    transfer: 'data transfer out',
    events: 'EventBridge events',
    sqs: 'SQS requests (sends, receives, deletes)',
    logs: 'CloudWatch Logs ingestion',
    xray: 'X-Ray traces',
    kms: 'KMS requests (token signing)',
  };
  for (const [op, n] of Object.entries(monthly)) {
    const usage = usages[op];
    if (!usage) throw new Error(`no measurement for ${op}`);
    for (const [line, usd] of Object.entries(opCost(fnOf[op] ?? op, usage, context)))
      addLine(LINE_NAMES[line] ?? line, usd * n);
  }
  // The sweeps: a scheduled invocation each run (its trace, logs and DynamoDB calls).
  for (const { line, fn, run, everyMinutes } of sweeps)
    addLine(
      `${line} (every ${everyMinutes === 1 ? 'minute' : `${everyMinutes} minutes`}: Lambda, DynamoDB, logs, trace)`,
      (SECONDS_PER_MONTH / 60 / everyMinutes) *
        (Object.values(opCost(fn, run, context)).reduce((a, b) => a + b, 0) +
          PRICES.lambdaRequest.usd +
          gbSeconds(run.handlerMs) * PRICES.lambdaArmGbSecond.usd +
          (context.platformLogBytes / GB) * PRICES.logsIngestedGb.usd +
          (stack.tracedFunctions.includes(fn) ? PRICES.xrayTraceRecorded.usd : 0)),
    );

  // Fixed and slow lines.
  const p = PRICES;
  addLine(`KMS keys (${stack.kmsKeys})`, stack.kmsKeys * p.kmsKeyMonth.usd);
  addLine(`Secrets Manager secrets (${stack.secrets})`, stack.secrets * p.secretMonth.usd);
  addLine(`CloudWatch alarms (${stack.alarmMetrics} metrics)`, stack.alarmMetrics * p.alarmMetricMonth.usd);
  addLine(
    `WAF web ACL + ${stack.wafRules} rules`,
    stack.webAcls * p.wafWebAclMonth.usd + stack.wafRules * p.wafRuleMonth.usd,
  );
  addLine(
    `SQS idle long polling (${stack.sqsMappings} Lambda mappings)`,
    stack.sqsMappings * SQS_IDLE_RECEIVES_PER_MAPPING_MONTH * p.sqsRequest.usd,
  );
  // The table key's Decrypts by DynamoDB: the roles the workload uses (its functions and the workers), every 5 minutes while open.
  const rolesUsed = new Set(Object.keys(monthly).map((op) => fnOf[op] ?? op)).size + 5;
  addLine(
    'KMS requests (table key, by DynamoDB)',
    rolesUsed * TABLE_KEY_DECRYPTS_PER_ROLE_HOUR * OPEN_HOURS_A_DAY * DAYS_PER_MONTH * p.kmsSymmetricRequest.usd,
  );
  // Storage after a year of the workload (table + index entries, PITR on the same bytes).
  const storedGb = (12 * sum('storageBytes')) / GB;
  addLine(
    'DynamoDB storage + PITR (after 12 months)',
    storedGb * (p.dynamoStorageGbMonth.usd + p.dynamoPitrGbMonth.usd),
  );
  const loggedGb = lines[LINE_NAMES.logs!]! / p.logsIngestedGb.usd;
  addLine(
    `CloudWatch Logs storage (${stack.logRetentionMonths} months kept)`,
    loggedGb * LOG_COMPRESSION * stack.logRetentionMonths * p.logsStoredGbMonth.usd,
  );
  const total = Object.values(lines).reduce((a, b) => a + b, 0);
  return { practices, total, lines, context };
}

/**
 * The fixed parts of the least stage that keeps the contract's guarantees and our edge security
 * (for the floor bill; docs/cost.md): the web ACL with its rules as synthesized (decision 0018),
 * the queues' idle polling (the pipeline the floors send events through), the token signing key
 * (asymmetric, never leaving KMS) and one symmetric key for everything at rest (table, bus,
 * queues, logs), one secret (the origin-verify, cursor and webhook secrets derived from it),
 * no alarms, no tracing, no platform log lines. Per request the floors of cost-floors.ts.
 */
const FLOOR_KMS_KEYS = 2;
const FLOOR_SECRETS = 1;
export const floorStack = (stack: StackFacts): StackFacts => ({
  ...stack,
  kmsKeys: FLOOR_KMS_KEYS,
  secrets: FLOOR_SECRETS,
  alarmMetrics: 0,
  tracedFunctions: [],
  workersTraced: false,
  platformLogLines: false,
});

/** The HTTP API's access log line (infra/stacks/stateless-stack.ts's format, typical values) plus the event overhead. */
const ACCESS_LOG_BYTES =
  JSON.stringify({
    requestId: 'ABCdEfGhIjKlMnO=',
    time: '28/Nov/2026:15:04:05 +0000',
    ip: '198.51.100.23',
    routeKey: 'GET /v1/appointments',
    status: '200',
    responseLength: '24311',
    latencyMs: '48',
    integrationLatencyMs: '45',
    integrationError: '-',
  }).length + 26;
