/**
 * The arithmetic of `npm run bench:cost` (pure: test/unit/cost-model.test.ts checks it): item
 * sizes and request units as DynamoDB bills them, the Lambda, log and tracing model, and the price
 * of an operation and of a month. Every rule and assumption is named here and in docs/cost.md.
 */
import { PRICES } from './prices';

/** An attribute value in DynamoDB's wire format (`{ S: 'x' }`, `{ M: {...} }`, ...). */
export type WireValue = Record<string, unknown>;
export type WireItem = Record<string, WireValue>;

// ---- Item sizes (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number: 1 byte per two significant digits (leading and trailing zeros trimmed) plus 1. */
export function numberSize(text: string): number {
  const digits = text.replace(/^[-+]/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** A value's size without its name: lists and maps 3 bytes, plus 1 byte per element (and a map element's name). */
export function valueSize(value: WireValue): number {
  const [type, inner] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return utf8(inner as string);
    case 'N':
      return numberSize(inner as string);
    case 'B':
      return Buffer.from(inner as string, 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
      return (inner as string[]).reduce((sum, s) => sum + utf8(s), 0);
    case 'NS':
      return (inner as string[]).reduce((sum, n) => sum + numberSize(n), 0);
    case 'BS':
      return (inner as string[]).reduce((sum, b) => sum + Buffer.from(b, 'base64').length, 0);
    case 'L':
      return 3 + (inner as WireValue[]).reduce((sum, element) => sum + 1 + valueSize(element), 0);
    case 'M':
      return (
        3 +
        Object.entries(inner as WireItem).reduce((sum, [name, element]) => sum + utf8(name) + 1 + valueSize(element), 0)
      );
    default:
      throw new Error(`unknown attribute type ${type}`);
  }
}

/** An item's size: the UTF-8 bytes of every attribute name plus its value's size. */
export const itemSize = (item: WireItem | undefined): number =>
  item ? Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0) : 0;

// ---- Request units (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/capacity-mode.html)

const READ_UNIT_BYTES = 4096;
const WRITE_UNIT_BYTES = 1024;

/**
 * One item read by key (GetItem, each key of a BatchGetItem): one unit per 4 KB, a missing item
 * still one unit; eventually consistent half of it. Billed on the whole item, whatever the projection.
 */
export const itemReadUnits = (bytes: number, strong: boolean) =>
  Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES)) * (strong ? 1 : 0.5);

/**
 * A Query: the sizes of every item it read (before any filter, whatever the projection or
 * `Select: COUNT`) summed, then rounded up to 4 KB once; at least one unit when nothing matched.
 */
export const queryReadUnits = (totalBytes: number, strong: boolean) =>
  Math.max(1, Math.ceil(totalBytes / READ_UNIT_BYTES)) * (strong ? 1 : 0.5);

/**
 * A write (Put, Update, Delete): one unit per 1 KB of the larger of the item before and after,
 * at least one (a failed condition or a missing item too). Transactional: twice.
 */
export const itemWriteUnits = (beforeBytes: number, afterBytes: number, transactional: boolean) =>
  Math.max(1, Math.ceil(Math.max(beforeBytes, afterBytes) / WRITE_UNIT_BYTES)) * (transactional ? 2 : 1);

/** A ConditionCheck in TransactWriteItems: billed as a transactional (doubled, strong) read of the item. */
export const conditionCheckUnits = (bytes: number) => 2 * itemReadUnits(bytes, true);

/** A TransactGetItems item: a doubled strong read. */
export const transactionalReadUnits = (bytes: number) => 2 * itemReadUnits(bytes, true);

/**
 * Writes to one global secondary index (projection ALL, so an index entry is the item's size)
 * for an item changing from `before` to `after` (undefined: absent or not in the index; `key` is
 * the entry's index key). Index writes are not transactional even under a transaction.
 */
export function indexWriteUnits(
  before: { key: string; bytes: number } | undefined,
  after: { key: string; bytes: number } | undefined,
  changed: boolean,
): number {
  const units = (bytes: number) => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));
  if (!before && !after) return 0;
  if (before && after) {
    if (before.key !== after.key) return units(before.bytes) + units(after.bytes);
    return changed ? units(Math.max(before.bytes, after.bytes)) : 0;
  }
  return units((before ?? after)!.bytes);
}

/** Storage is billed on item size plus 100 bytes per item (and per index entry). */
export const STORAGE_OVERHEAD_BYTES = 100;

// ---- Lambda, logs, tracing

/** Memory of every function (synthesized stack: 512 MB, arm64). */
export const LAMBDA_MEMORY_MB = 512;
/**
 * CPU at 512 MB: Lambda gives 1 vCPU at 1,769 MB, in proportion below, so the CPU measured here
 * (one core) takes 1769/512 = 3.46x as long there.
 */
export const CPU_FACTOR = 1769 / LAMBDA_MEMORY_MB;
/** Assumed DynamoDB (or KMS) round trip from Lambda in the region, warm connection: 8 ms a step of calls in flight together. */
export const ROUND_TRIP_MS = 8;
/** The SDK's own CPU per call (docs/performance.md: about 1 ms a call), for worker and floor estimates. */
export const SDK_CPU_MS_PER_CALL = 1;

/** Billed duration of an invocation (1 ms granularity): its sequential round trips plus its CPU at 512 MB. */
export const billedMs = (steps: number, cpuMs: number) =>
  Math.max(1, Math.ceil(steps * ROUND_TRIP_MS + cpuMs * CPU_FACTOR));

export const gbSeconds = (ms: number) => (ms / 1000) * (LAMBDA_MEMORY_MB / 1024);

/** CloudWatch Logs bills each event as its UTF-8 message plus 26 bytes. */
export const LOG_EVENT_OVERHEAD_BYTES = 26;
/**
 * Lambda's platform lines per invocation (text format, or JSON with a system log level of INFO):
 * START (~60 B), END (~51 B), REPORT with its XRAY line (~260 B), each plus the 26-byte event
 * overhead. None with JSON logs at system log level WARN (the synthesized stack: cost-stack.ts).
 */
export const PLATFORM_LOG_BYTES_PER_INVOCATION = 60 + 51 + 260 + 3 * LOG_EVENT_OVERHEAD_BYTES;
/** Logs kept (compressed about 6:1) for the synthesized retention. */
export const LOG_COMPRESSION = 1 / 6;

/**
 * X-Ray's default sampling rule for Lambda (active tracing): the first request each second and
 * 5% of the rest, per function. Answers traces per second for `rate` invocations per second.
 */
export const xrayTracesPerSecond = (rate: number) => (rate <= 1 ? rate : 1 + 0.05 * (rate - 1));

/**
 * A stream event source mapping polls each shard 4 times a second: with batches (a request's
 * records, written together) arriving at random at `rate` a second, the invocations a second are
 * the polls that find something: shards x 4 x (1 - e^(-rate / (4 x shards))).
 */
export const streamInvocationsPerSecond = (rate: number, shards: number) =>
  shards * 4 * (1 - Math.exp(-rate / (4 * shards)));

/**
 * Idle SQS polling by one Lambda event source mapping: at least 5 pollers, each a 20-second long
 * poll, around the clock: 5 x 3 a minute = 648,000 ReceiveMessage requests in 30 days.
 */
export const SQS_IDLE_RECEIVES_PER_MAPPING_MONTH = (5 * (30 * 24 * 3600)) / 20;

/** Days in a billing month of the workload. */
export const DAYS_PER_MONTH = 30;
export const SECONDS_PER_MONTH = DAYS_PER_MONTH * 24 * 3600;

// ---- An operation's usage and its price

/** What one operation uses, request and pipeline (stream workers, bus, queues, webhook) together. */
export interface OpUsage {
  /** An API request (API Gateway, the edge, an access log line); 0 for a background job. */
  apiRequests: number;
  readUnits: number;
  writeUnits: number;
  /** Net table and index storage added, bytes (items with a TTL left out: they expire). */
  storageBytes: number;
  /** Rounds of stream records written together (each reaches every stream worker as a batch of its own at one practice). */
  streamBatches: number;
  streamRecords: number;
  /** Billed ms of the API function's invocation. */
  handlerMs: number;
  /** Billed ms of the stream workers' work on this operation's records (their invocations' own overhead aside). */
  streamWorkerMs: number;
  /** Messages through an SQS-triggered worker (events, deliveries): a send, a receive, a delete and an invocation each. */
  queueMessages: number;
  /** Billed ms of the queue workers' invocations. */
  queueWorkerMs: number;
  eventBridgeEntries: number;
  /** Log bytes the functions wrote (each line with its 26-byte event overhead), platform lines aside. */
  logBytes: number;
  /** Response bytes to the caller (headers and body), and webhook bodies POSTed out. */
  responseBytes: number;
  webhookBytes: number;
  /** kms:Sign calls (the token exchange). */
  kmsSigns: number;
}

/** An operation that uses nothing: spread it and set what one does use. */
export const NO_USAGE: Readonly<OpUsage> = {
  apiRequests: 0,
  readUnits: 0,
  writeUnits: 0,
  storageBytes: 0,
  streamBatches: 0,
  streamRecords: 0,
  handlerMs: 0,
  streamWorkerMs: 0,
  queueMessages: 0,
  queueWorkerMs: 0,
  eventBridgeEntries: 0,
  logBytes: 0,
  responseBytes: 0,
  webhookBytes: 0,
  kmsSigns: 0,
};

/** What the price of an operation depends on besides itself: the scale it runs at. */
export interface CostContext {
  /** Stream worker invocations per batch of records (1 at one practice, fewer when batches share polls). */
  streamInvocationsPerBatch: number;
  /** How many stream workers the synthesized mappings invoke for a record (no filters: every one). */
  streamWorkers: number;
  /** Fraction of invocations X-Ray records, per function (default 1). */
  traced: (fn: string) => number;
  /** The stage's edge (CloudFront + WAF) in front of the HTTP API. */
  edge: boolean;
  /** CloudFront Functions each request runs at the edge (0 when none is attached). */
  edgeFunctions?: number;
  /** The access log line of one request, bytes with overhead. */
  accessLogBytes: number;
  /** Lambda's own log bytes per invocation (PLATFORM_LOG_BYTES_PER_INVOCATION, or 0 without platform lines). */
  platformLogBytes: number;
}

/** Base of a stream worker invocation beyond the work on its records (decode a batch, answer): billed ms. */
export const STREAM_INVOCATION_BASE_MS = 3;

const GB = 1024 ** 3;

/** An operation's price, by line (US dollars for one operation). */
export function opCost(fn: string, usage: OpUsage, ctx: CostContext): Record<string, number> {
  const streamInvocations = usage.streamBatches * ctx.streamInvocationsPerBatch * ctx.streamWorkers;
  const invocations = usage.apiRequests + streamInvocations + usage.queueMessages;
  const lambdaMs =
    usage.handlerMs + usage.streamWorkerMs + streamInvocations * STREAM_INVOCATION_BASE_MS + usage.queueWorkerMs;
  const p = PRICES;
  const logBytes = usage.logBytes + invocations * ctx.platformLogBytes + usage.apiRequests * ctx.accessLogBytes;
  return {
    dynamodb: usage.readUnits * p.dynamoReadRequestUnit.usd + usage.writeUnits * p.dynamoWriteRequestUnit.usd,
    lambda: invocations * p.lambdaRequest.usd + gbSeconds(lambdaMs) * p.lambdaArmGbSecond.usd,
    api: usage.apiRequests * p.httpApiRequest.usd,
    edge: ctx.edge
      ? usage.apiRequests *
        (p.cloudFrontRequest.usd + (ctx.edgeFunctions ?? 0) * p.cloudFrontFunctionInvocation.usd + p.wafRequest.usd)
      : 0,
    transfer:
      (usage.responseBytes / GB) * (ctx.edge ? p.cloudFrontTransferOutGb.usd : p.dataTransferOutGb.usd) +
      (usage.webhookBytes / GB) * p.dataTransferOutGb.usd,
    events: usage.eventBridgeEntries * p.eventBridgeCustomEvent.usd,
    // EventBridge's send to the events queue, or fanOut's to deliveries; the mapping's receive and delete.
    sqs: usage.queueMessages * 3 * p.sqsRequest.usd,
    logs: (logBytes / GB) * p.logsIngestedGb.usd,
    xray:
      (usage.apiRequests * ctx.traced(fn) +
        streamInvocations * ctx.traced('stream') +
        usage.queueMessages * ctx.traced('queue')) *
      p.xrayTraceRecorded.usd,
    kms: usage.kmsSigns * p.kmsAsymmetricRequest.usd,
  };
}

export const total = (lines: Record<string, number>) => Object.values(lines).reduce((sum, value) => sum + value, 0);

/** Invocations an operation makes in all (for the table). */
export const invocationsOf = (usage: OpUsage, ctx: CostContext) =>
  usage.apiRequests + usage.streamBatches * ctx.streamInvocationsPerBatch * ctx.streamWorkers + usage.queueMessages;

// ---- Goals against floors

/** A goal (US dollars a month) judged against the measured bill and the floor's (the least any build keeping the guarantees could cost). */
export interface GoalVerdict {
  goal: number;
  measured: number;
  floor: number;
  met: boolean;
  /** The floor is at or under the goal: some build could meet it. */
  reachable: boolean;
  /** What is left to cut to the goal (0 when met), and what the floor leaves above it (0 when reachable). */
  toCut: number;
  overByFloor: number;
}

export function goalVerdict(goal: number, measured: number, floor: number): GoalVerdict {
  return {
    goal,
    measured,
    floor,
    met: measured <= goal,
    reachable: floor <= goal,
    toCut: Math.max(0, measured - goal),
    overByFloor: Math.max(0, floor - goal),
  };
}

/** `goal 1.25: met`, `goal 1.25: not met, reachable (floor $1.02; $0.23 to cut)`, `goal 8: impossible (floor $11.40, $3.40 over)`. */
export function describeVerdict(verdict: GoalVerdict): string {
  const usd = (value: number) => `$${value.toFixed(2)}`;
  if (verdict.met) return `goal ${verdict.goal}: met (floor ${usd(verdict.floor)})`;
  if (verdict.reachable)
    return `goal ${verdict.goal}: not met, reachable (floor ${usd(verdict.floor)}; ${usd(verdict.toCut)} to cut)`;
  return `goal ${verdict.goal}: impossible (floor ${usd(verdict.floor)}, ${usd(verdict.overByFloor)} over it)`;
}
